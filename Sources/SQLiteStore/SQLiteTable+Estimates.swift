import Relational

// Quick row-count estimates for the runner's choice of initiator.

extension SQLiteTable {
    /// Value sets this small are counted exactly through the index when no ANALYZE
    /// statistics exist.
    static let exactCountLimit = 32

    /// Estimated rows matching `filter` (all rows when nil). Unsatisfiable filters give 0.
    /// For a filter implying `a ∈ V` on an attribute that leads an index: |V| × the average
    /// rows per key from sqlite_stat1 after `analyze()`, or else, for small V, exact indexed
    /// counts. Other filters give the table's (cached) row count, an upper bound. Nil only if
    /// SQLite fails.
    public func estimatedCount(filter: Predicate?) -> Int? {
        guard let total = try? count() else { return nil }
        guard let filter else { return total }
        if filter.isUnsatisfiable { return 0 }
        var best = total
        let leading = leadingIndexedAttributes
        for (attribute, values) in filter.impliedValueSets where leading.contains(attribute) {
            if let estimate = estimate(attribute, values) { best = min(best, estimate) }
        }
        return best
    }

    private func estimate(_ attribute: Attribute, _ values: Set<Value>) -> Int? {
        if values.isEmpty { return 0 }
        if let perKey = averageRowsPerKey(attribute) { return values.count * perKey }
        guard values.count <= Self.exactCountLimit else { return nil }
        let sql = "SELECT count(*) FROM \(quotedName) WHERE \(attribute.quotedSQL) IS ?"
        var sum = 0
        for v in values {
            guard let rows = try? database.query(sql, [v]), let first = rows.first,
                  case let .integer(n) = first[0] else { return nil }
            sum += Int(n)
        }
        return sum
    }

    /// sqlite_stat1's average rows per value of an index's leading column, if analyzed.
    private func averageRowsPerKey(_ attribute: Attribute) -> Int? {
        for index in indexNamesLeading(with: attribute) {
            if let numbers = database.stat1(table: sourceName, index: index), numbers.count >= 2 {
                return numbers[1]
            }
        }
        return nil
    }

    /// Names of SQLite indexes on this table whose first column is `attribute` (asked once
    /// per attribute and kept until `createIndex` adds one: every estimate used to ask again).
    private func indexNamesLeading(with attribute: Attribute) -> [String] {
        if let known = indexNamesByLeadingAttribute[attribute] { return known }
        let names = queryIndexNamesLeading(with: attribute)
        indexNamesByLeadingAttribute[attribute] = names
        return names
    }

    private func queryIndexNamesLeading(with attribute: Attribute) -> [String] {
        let sql = "SELECT il.name FROM pragma_index_list(?) AS il, pragma_index_info(il.name) AS ii "
            + "WHERE ii.seqno = 0 AND ii.name = ?"
        guard let rows = try? database.query(sql, [.text(sourceName), .text(attribute.name)]) else { return [] }
        return rows.compactMap { if case let .text(s) = $0[0] { return s } else { return nil } }
    }
}
