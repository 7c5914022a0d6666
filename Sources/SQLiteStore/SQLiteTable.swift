import Relational

/// A table of an SQLite database as a source relation.
///
/// A cursor runs `SELECT <columns in scheme order> FROM table WHERE <filter>` with the
/// filter's constants bound as parameters and steps it lazily, a batch at a time. Equality
/// and IN-style filters on the leading column of an index (or the primary key) become index
/// searches; `fullScanSteps` counts the rows SQLite stepped through in full-table scans, so a
/// test can tell a lookup from a scan.
public final class SQLiteTable: SourceRelation {
    public let database: SQLiteDatabase
    /// The table's name in the database.
    public let sourceName: String
    public let scheme: Scheme
    /// Key attributes in key order (all attributes when the whole row is the key).
    public let primaryKey: [Attribute]
    /// Each index's attributes in order, the primary key's automatic index included.
    public private(set) var indexes: [[Attribute]]

    /// Rows handed out by cursors since creation or `resetStatistics`.
    public private(set) var rowsDelivered = 0
    /// Rows SQLite stepped through in full-table scans for this table's cursors.
    public private(set) var fullScanSteps = 0
    /// Cursors opened (each runs one SELECT, or several for a filter too large for one).
    public private(set) var fetches = 0
    /// The most parameters one SELECT binds; nil for SQLite's own limit. Tests lower it to
    /// exercise the split of large IN-sets over several statements.
    public var maxParametersPerStatement: Int?

    let quotedName: String
    /// The columns in scheme order, quoted and comma-separated.
    let selectList: String
    private var cachedCount: (version: Int, count: Int)?
    /// See `indexNamesLeading(with:)`; cleared when this table gains an index.
    var indexNamesByLeadingAttribute: [Attribute: [String]] = [:]

    init(database: SQLiteDatabase, name: String, scheme: Scheme, primaryKey: [Attribute], indexes: [[Attribute]]) {
        self.database = database
        self.sourceName = name
        self.scheme = scheme
        self.primaryKey = primaryKey
        self.indexes = indexes
        self.quotedName = quoteIdentifier(name)
        self.selectList = scheme.attributes.map(\.quotedSQL).joined(separator: ", ")
    }

    public func resetStatistics() {
        rowsDelivered = 0
        fullScanSteps = 0
        fetches = 0
    }

    /// Attributes that lead an index, so equality filters on them are index searches.
    public var leadingIndexedAttributes: Set<Attribute> {
        Set(indexes.compactMap(\.first) + primaryKey.prefix(1))
    }

    /// Adds an index on `attributes` (no-op if an identical one exists).
    public func createIndex(on attributes: [Attribute]) throws {
        guard !attributes.isEmpty else {
            throw SQLiteError(.usage, "an index on table '\(sourceName)' needs at least one attribute")
        }
        for a in attributes { _ = try scheme.requireIndex(of: a, context: "index on table \(sourceName)") }
        if indexes.contains(attributes) { return }
        try database.executeScript(
            SQLiteDatabase.createIndexSQL(table: sourceName, number: indexes.count, attributes: attributes))
        indexes.append(attributes)
        indexNamesByLeadingAttribute = [:]
    }

    // MARK: SourceRelation

    public func makeCursor(filter: Predicate?) throws -> any RowCursor {
        fetches += 1
        guard let filter else {
            return try SQLiteCursor(table: self, sql: "SELECT \(selectList) FROM \(quotedName)", parameters: [])
        }
        let (condition, parameters) = try whereClause(filter)
        if filter.isUnsatisfiable { return ArrayCursor([]) }
        if parameters.count > parameterLimit { return try largeFilterCursor(filter) }
        do {
            return try SQLiteCursor(
                table: self, sql: "SELECT \(selectList) FROM \(quotedName) WHERE \(condition)", parameters: parameters)
        } catch let error as SQLiteError where error.kind == .prepare {
            // A filter SQLite will not prepare (its parser's stack overflows on some sixty
            // nested `not`s, well inside the query language's limits) is applied here to
            // every row instead: the fetch reads the whole table, as an unfiltered one does.
            return try filteredInMemory(filter)
        }
    }

    /// Every row, filtered by `filter` in this process, counted as delivered as it is read.
    private func filteredInMemory(_ filter: Predicate) throws -> any RowCursor {
        let compiled = try CompiledPredicate(filter, scheme: scheme)
        let rows = try allRows()
        recordBatch(delivered: rows.count)
        return ArrayCursor(rows.filter { compiled.matches($0) })
    }

    public func canFetchSelectively(_ filter: Predicate) -> Bool {
        if filter.isUnsatisfiable { return true }
        let leading = leadingIndexedAttributes
        return filter.impliedValueSets.keys.contains { leading.contains($0) }
    }

    /// The filter as SQL over this table's columns, with its parameters.
    func whereClause(_ filter: Predicate) throws -> (String, [Value]) {
        var parameters: [Value] = []
        let sql = try SQLPredicate.translate(filter, parameters: &parameters) { attribute in
            _ = try scheme.requireIndex(of: attribute, context: "select (\(filter)) on table \(sourceName)")
            return attribute.quotedSQL
        }
        return (sql, parameters)
    }

    func recordBatch(delivered: Int) { rowsDelivered += delivered }
    func recordScan(steps: Int) { fullScanSteps += steps }

    // MARK: Counting

    /// The number of rows, cached until the data changes through this connection.
    public func count() throws -> Int {
        let version = database.dataVersion
        if let cachedCount, cachedCount.version == version { return cachedCount.count }
        let rows = try database.query("SELECT count(*) FROM \(quotedName)")
        guard let first = rows.first, case let .integer(n) = first[0] else {
            throw SQLiteError(.execute, "count(*) of table '\(sourceName)' returned no number")
        }
        cachedCount = (version, Int(n))
        return Int(n)
    }

    /// Every row, read without touching the statistics (for tests and mutations).
    public func allRows() throws -> [Row] {
        try database.query("SELECT \(selectList) FROM \(quotedName)")
    }
}
