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
    public init(name: String, scheme: Scheme, rows: [Row], indexedAttributes: [Attribute] = []) {
        self.name = name
        self.scheme = scheme
        self.indexedAttributes = indexedAttributes.filter(scheme.contains)
        var seen = Set<Row>()
        self.rows = rows.filter { $0.count == scheme.count && seen.insert($0).inserted }
    }

    /// The same table with `rows` in place of its rows (de-duplicated likewise).
    public func replacingRows(_ rows: [Row]) -> CaseTable {
        CaseTable(name: name, scheme: scheme, rows: rows, indexedAttributes: indexedAttributes)
    }
}
