import PlistStore
import Relational
import SQLiteStore
import Workloads

/// A case's tables loaded three times: as memory tables and into a fresh in-memory SQLite
/// database for the engine (and SQLite as an oracle), and as plain row arrays for the
/// reference evaluator, with the case's outputs built over each.
public final class LoadedCase {
    public let graph: CaseGraph
    public let memoryTables: [Relation]
    public let database: SQLiteDatabase
    public let sqliteTables: [Relation]
    public let memoryOutputs: [Relation]
    public let sqliteOutputs: [Relation]
    /// The outputs over `ReferenceTable`s, for the reference evaluator only.
    public let referenceOutputs: [Relation]

    public init(_ graph: CaseGraph) throws {
        self.graph = graph
        memoryTables = try graph.tables.map { t in
            let table = try MemoryTable(name: t.name, scheme: t.scheme, indexedAttributes: t.indexedAttributes)
            try table.add(contentsOf: t.rows)
            return Relation(source: table)
        }
        memoryOutputs = try graph.relations(over: memoryTables)
        database = try SQLiteDatabase.inMemory()
        let db = database
        let memory = memoryTables
        sqliteTables = try db.transaction {
            try graph.tables.enumerated().map { i, t in
                // SQLite has no table without columns; such a table (a literal `relation [] {
                // () }`) stays a memory table, which the SQL translation inlines as a literal.
                if t.scheme.attributes.isEmpty { return memory[i] }
                let table = try db.createTable(t.name, scheme: t.scheme, indexes: t.indexedAttributes.map { [$0] })
                _ = try table.bulkLoad(t.rows, assumeUnique: true)
                return Relation(source: table)
            }
        }
        sqliteOutputs = try graph.relations(over: sqliteTables)
        referenceOutputs = try graph.relations(over: graph.tables.map { Relation(source: ReferenceTable($0)) })
    }

    /// The outputs over `backend`'s sources. The property-list backends' files are written
    /// on first use (into a temporary directory kept while this case lives).
    public func outputs(_ backend: Backend) throws -> [Relation] {
        switch backend {
        case .memory: return memoryOutputs
        case .sqlite: return sqliteOutputs
        case .plistFile, .plistDirectory, .plistDatabase:
            if let loaded = plist[backend] { return loaded.outputs }
            let loaded = try PlistCase(graph, backend: backend)
            plist[backend] = loaded
            return loaded.outputs
        }
    }

    private var plist: [Backend: PlistCase] = [:]

    /// The tables by name, for printing and parsing query text.
    public var memoryCatalog: RelationCatalog {
        var catalog = RelationCatalog()
        for (t, r) in zip(graph.tables, memoryTables) { catalog.add(r, as: t.name) }
        return catalog
    }

    /// The case's outputs as query-language text (tables by name).
    public var queryText: String {
        (try? QueryPrinter.print(memoryOutputs, catalog: memoryCatalog)) ?? "# (query could not be printed)\n"
    }
}
