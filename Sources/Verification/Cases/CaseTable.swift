import Relational

/// One source table of a verification case: a name, a scheme, distinct rows (in scheme
/// order) and the attributes to index (hash indexes in memory, SQLite indexes on disk).
public struct CaseTable: Hashable, Sendable {
    public var name: String
    public var scheme: Scheme
    public private(set) var rows: [Row]
    public var indexedAttributes: [Attribute]

    /// Rows equal in the value order (`3` and `3.0`) are kept once, first one wins, so the
    /// table is a set for the memory table, SQLite's primary key and the evaluator alike.
    /// Equality is the oracle's `ReferenceOrder`, not `Value`'s hashing, so a hashing bug
    /// cannot hand the engine and the oracles a table with a row twice.
    public init(name: String, scheme: Scheme, rows: [Row], indexedAttributes: [Attribute] = []) {
        self.name = name
        self.scheme = scheme
        self.indexedAttributes = indexedAttributes.filter(scheme.contains)
        self.rows = CaseTable.firstOfEach(rows.filter { $0.count == scheme.count })
    }

    /// The first of each group of equal rows, in their original order.
    static func firstOfEach(_ rows: [Row]) -> [Row] {
        let order = rows.indices.sorted { i, j in
            let c = ReferenceOrder.compare(rows[i], rows[j])
            return c != 0 ? c < 0 : i < j
        }
        var kept: [Int] = []
        for (k, i) in order.enumerated() where k == 0 || !ReferenceOrder.equal(rows[order[k - 1]], rows[i]) {
            kept.append(i)
        }
        return kept.sorted().map { rows[$0] }
    }

    /// The same table with `rows` in place of its rows (de-duplicated likewise).
    public func replacingRows(_ rows: [Row]) -> CaseTable {
        CaseTable(name: name, scheme: scheme, rows: rows, indexedAttributes: indexedAttributes)
    }
}
