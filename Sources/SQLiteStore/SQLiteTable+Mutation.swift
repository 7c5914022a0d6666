import Relational

// Adding, updating and deleting rows, always inside a transaction so a failing batch
// leaves the table as it was. Rows are values in scheme order.

extension SQLiteTable {
    /// Adds rows with set semantics: a row equal (null-safe) to one already present is not
    /// added again. A row whose primary key matches a different row is a constraint error,
    /// and then none of the batch is added. Returns how many rows were new.
    @discardableResult
    public func add<S: Sequence>(_ rows: S) throws -> Int where S.Element == Row {
        try database.transaction {
            let inserter = try RowInserter(table: self, checked: true)
            defer { inserter.close() }
            var added = 0
            for row in rows where try inserter.insert(row) { added += 1 }
            return added
        }
    }

    /// Adds one row; false if it was already present.
    @discardableResult
    public func add(_ row: Row) throws -> Bool {
        try add(CollectionOfOne(row)) == 1
    }

    /// The fast path for generators: one transaction, one prepared INSERT reused for every
    /// row. With `assumeUnique` the caller promises the rows are distinct and new, so no
    /// existence check is made (a repeated primary key still fails the whole load).
    @discardableResult
    public func bulkLoad<S: Sequence>(_ rows: S, assumeUnique: Bool = false) throws -> Int where S.Element == Row {
        try database.transaction {
            let inserter = try RowInserter(table: self, checked: !assumeUnique)
            defer { inserter.close() }
            var added = 0
            for row in rows where try inserter.insert(row) { added += 1 }
            return added
        }
    }

    /// Deletes the rows matching `predicate`; returns how many went.
    @discardableResult
    public func delete(where predicate: Predicate) throws -> Int {
        let (condition, parameters) = try whereClause(predicate)
        return try database.transaction {
            try database.execute("DELETE FROM \(quotedName) WHERE \(condition)", parameters)
        }
    }

    /// Sets attributes on the rows matching `predicate`; returns how many rows matched. As
    /// in a memory table, rows that become equal coalesce; a primary-key clash with another
    /// row is an error and changes nothing.
    @discardableResult
    public func update(where predicate: Predicate, set newValues: [Attribute: Value]) throws -> Int {
        var assignments: [(Int, Value)] = []
        for (a, v) in newValues.sorted(by: { $0.key < $1.key }) {
            assignments.append((try scheme.requireIndex(of: a, context: "update of \(sourceName)"), v))
        }
        let (condition, parameters) = try whereClause(predicate)
        return try database.transaction {
            let matched = try database.query(
                "SELECT \(selectList) FROM \(quotedName) WHERE \(condition)", parameters)
            try database.execute("DELETE FROM \(quotedName) WHERE \(condition)", parameters)
            let inserter = try RowInserter(table: self, checked: true)
            defer { inserter.close() }
            for row in matched {
                var changed = row.values
                for (i, v) in assignments { changed[i] = v }
                _ = try inserter.insert(Row(changed))
            }
            return matched.count
        }
    }
}

/// Inserts rows through prepared statements reused for the whole batch. When `checked`, a
/// lookup by primary key (null-safe `IS`, answered by the key's index) comes first.
private final class RowInserter {
    private let table: SQLiteTable
    private let insertStatement: SQLiteStatement
    private let lookupStatement: SQLiteStatement?
    private let keyPositions: [Int]

    init(table: SQLiteTable, checked: Bool) throws {
        self.table = table
        let db = table.database
        let columns = table.scheme.count
        insertStatement = try db.checkout(
            "INSERT INTO \(table.quotedName) (\(table.selectList)) VALUES (\(placeholders(columns)))")
        let key = table.primaryKey.isEmpty ? table.scheme.attributes : table.primaryKey
        keyPositions = key.compactMap { table.scheme.index(of: $0) }
        if checked {
            let condition = key.map { "\($0.quotedSQL) IS ?" }.joined(separator: " AND ")
            do {
                lookupStatement = try db.checkout(
                    "SELECT \(table.selectList) FROM \(table.quotedName) WHERE \(condition) LIMIT 1")
            } catch {
                db.checkin(insertStatement)
                throw error
            }
        } else {
            lookupStatement = nil
        }
    }

    /// Inserts `row` unless an equal row is present; true if inserted.
    func insert(_ row: Row) throws -> Bool {
        guard row.count == table.scheme.count else {
            throw RelationError.rowWidth(expected: table.scheme.count, got: row.count, relation: table.sourceName)
        }
        if let lookup = lookupStatement {
            lookup.resetAndClear()
            try lookup.bind(keyPositions.map { row.values[$0] })
            if try lookup.step() {
                let existing = lookup.row(width: table.scheme.count)
                lookup.resetAndClear()
                if existing == row { return false }
                let key = keyPositions.map { "\(table.scheme.attributes[$0]) = \(row.values[$0])" }
                throw SQLiteError(.constraint,
                    "table '\(table.sourceName)' already has a row with primary key (\(key.joined(separator: ", "))): "
                    + "\(existing.values) conflicts with the new row \(row.values)")
            }
        }
        insertStatement.resetAndClear()
        try insertStatement.bind(row.values)
        try insertStatement.run()
        return true
    }

    func close() {
        table.database.checkin(insertStatement)
        if let lookupStatement { table.database.checkin(lookupStatement) }
    }
}
