import Relational

/// One generated table: its name, scheme, rows (values in scheme order) and the attributes
/// to index (ids and foreign keys), as memory-table indexes or SQLite indexes.
public struct DatasetTable: Sendable {
    public let name: String
    public let scheme: Scheme
    public let rows: [Row]
    public let indexedAttributes: [Attribute]

    /// `columns` in any order; each row's values in that order.
    public init(name: String, columns: [Attribute], rows: [[Value]], indexedAttributes: [Attribute]) throws {
        let scheme = try Scheme(columns)
        var order: [Int] = []
        for a in scheme.attributes {
            guard let i = columns.firstIndex(of: a) else { continue }
            order.append(i)
        }
        var stored: [Row] = []
        stored.reserveCapacity(rows.count)
        for values in rows {
            guard values.count == columns.count else {
                throw RelationError.rowWidth(expected: columns.count, got: values.count, relation: name)
            }
            stored.append(Row(order.map { values[$0] }))
        }
        try self.init(name: name, scheme: scheme, rows: stored, indexedAttributes: indexedAttributes)
    }

    /// Rows already in scheme order.
    public init(name: String, scheme: Scheme, rows: [Row], indexedAttributes: [Attribute]) throws {
        for a in indexedAttributes {
            _ = try scheme.requireIndex(of: a, context: "index on generated table \(name)")
        }
        self.name = name
        self.scheme = scheme
        self.rows = rows
        self.indexedAttributes = indexedAttributes
    }

    /// The values of one attribute, row by row.
    public func column(_ attribute: Attribute) throws -> [Value] {
        let i = try scheme.requireIndex(of: attribute, context: "table \(name)")
        return rows.map { $0.values[i] }
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

    /// Memory tables with their indexes, by name. Rows are bulk-added (each table's rows
    /// are distinct by construction; the table still enforces set semantics).
    public func memoryTables() throws -> [String: MemoryTable] {
        var out: [String: MemoryTable] = [:]
        for t in tables {
            let table = try MemoryTable(name: t.name, scheme: t.scheme, indexedAttributes: t.indexedAttributes)
            table.reserveCapacity(t.rows.count)
            try table.add(contentsOf: t.rows)
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
