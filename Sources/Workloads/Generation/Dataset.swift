import Relational

/// One generated table: its name, scheme, rows (held as columns in scheme order) and the
/// attributes to index (ids and foreign keys), as memory-table indexes or SQLite indexes.
public struct DatasetTable: Sendable {
    public let name: String
    public let scheme: Scheme
    /// The rows as columns, in scheme order (what memory tables load without a `Row` per row).
    public let store: ColumnStore
    public let indexedAttributes: [Attribute]

    /// `columns` in any order; each row's values in that order.
    public init(name: String, columns: [Attribute], rows: [[Value]], indexedAttributes: [Attribute]) throws {
        let scheme = try Scheme(columns)
        let order = Scheme.sortingOrder(of: columns)
        var store = ColumnStore(width: scheme.count)
        store.reserveCapacity(rows.count)
        for values in rows {
            guard values.count == columns.count else {
                throw RelationError.rowWidth(expected: columns.count, got: values.count, relation: name)
            }
            try store.append(Row(order.map { values[$0] }))
        }
        try self.init(name: name, scheme: scheme, store: store, indexedAttributes: indexedAttributes)
    }

    /// Rows already in scheme order.
    public init(name: String, scheme: Scheme, rows: [Row], indexedAttributes: [Attribute]) throws {
        try self.init(name: name, scheme: scheme, store: ColumnStore(width: scheme.count, rows: rows), indexedAttributes: indexedAttributes)
    }

    /// Columns already in scheme order.
    public init(name: String, scheme: Scheme, store: ColumnStore, indexedAttributes: [Attribute]) throws {
        guard store.width == scheme.count else {
            throw RelationError.rowWidth(expected: scheme.count, got: store.width, relation: name)
        }
        for a in indexedAttributes {
            _ = try scheme.requireIndex(of: a, context: "index on generated table \(name)")
        }
        self.name = name
        self.scheme = scheme
        self.store = store
        self.indexedAttributes = indexedAttributes
    }

    public var rowCount: Int { store.count }

    /// Every row, in stored order (decoded from the columns on each call).
    public var rows: [Row] { store.rows }

    /// The values of one attribute, row by row.
    public func column(_ attribute: Attribute) throws -> [Value] {
        let i = try scheme.requireIndex(of: attribute, context: "table \(name)")
        return (0..<store.count).map { store.value(row: $0, column: i) }
    }
}

/// A generated workload: named tables plus how they were made. Tables are kept sorted by
/// name, so hashing, printing and writing never depend on generation order.
public struct Dataset: Sendable {
    public let shape: Shape
    public let rowsRequested: Int
    public let seed: UInt64
    public let parameters: ShapeParameters
    public let tables: [DatasetTable]
    /// Shape-specific facts for the summary (depth histogram, fanout statistics, ...).
    public let statistics: DatasetStatistics

    public init(
        shape: Shape, rowsRequested: Int, seed: UInt64, parameters: ShapeParameters,
        tables: [DatasetTable], statistics: DatasetStatistics = DatasetStatistics()
    ) {
        self.shape = shape
        self.rowsRequested = rowsRequested
        self.seed = seed
        self.parameters = parameters
        self.tables = tables.sorted { $0.name < $1.name }
        self.statistics = statistics
    }

    public func table(named name: String) -> DatasetTable? {
        tables.first { $0.name == name }
    }

    /// Memory tables with their indexes, by name. Each table takes over the generated
    /// columns whole (shared, not copied; each table's rows are distinct by construction,
    /// and the table still enforces set semantics). Each declares the primary key the
    /// SQLite and property-list loads give the table (`DatasetTable.primaryKey`), checked by
    /// its index rather than a pass, so a change clashing with it is refused on memory too.
    public func memoryTables() throws -> [String: MemoryTable] {
        var out: [String: MemoryTable] = [:]
        for t in tables {
            let table = try MemoryTable(name: t.name, scheme: t.scheme, indexedAttributes: t.indexedAttributes)
            try table.append(t.store)
            // A candidate whose values repeat is no key: the whole row is, as for SQLite.
            if let key = t.keyCandidate { try? table.declarePrimaryKey([key]) }
            out[t.name] = table
        }
        return out
    }

    /// The tables as source relations for the query language, one shared `Relation` per
    /// table (a name used twice in a query is one node).
    public func memoryRelations() throws -> RelationCatalog {
        RelationCatalog(try memoryTables().mapValues { Relation(source: $0) })
    }
}

/// Shape-specific numbers for the summary; empty for shapes without a hierarchy.
public struct DatasetStatistics: Sendable, Equatable {
    /// depth → number of documents at that depth (roots are depth 0).
    public var depthHistogram: [Int: Int] = [:]
    /// Children per document with at least one child.
    public var fanout: FanoutStatistics?
    /// Free-form lines, e.g. "selected_documents: subtree of document 17".
    public var notes: [String] = []

    public init() {}
}

public struct FanoutStatistics: Sendable, Equatable {
    public let parents: Int
    public let leaves: Int
    public let minimum: Int
    public let maximum: Int
    public let mean: Double
    public let median: Int
}
