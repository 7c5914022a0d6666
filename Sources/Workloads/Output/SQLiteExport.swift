import FileSupport
import Relational
import SQLiteStore

extension Dataset {
    /// Loads every table into `database`: all in one transaction, one prepared INSERT per
    /// table reused for every row, the tables' indexes created after their rows are in,
    /// then `ANALYZE` if asked. `id`-like first indexed attributes that are unique become
    /// the primary key; otherwise the whole row is the key (a set).
    @discardableResult
    public func load(into database: SQLiteDatabase, analyze: Bool = false) throws -> [String: SQLiteTable] {
        var out: [String: SQLiteTable] = [:]
        try database.transaction {
            for t in tables {
                let table = try database.createTable(t.name, scheme: t.scheme, primaryKey: primaryKey(of: t))
                try table.bulkLoad(t.rows, assumeUnique: true)
                for a in t.indexedAttributes where !table.leadingIndexedAttributes.contains(a) {
                    try table.createIndex(on: [a])
                }
                out[t.name] = table
            }
        }
        if analyze { try database.analyze() }
        return out
    }

    /// Writes an SQLite file at `path` (replaced only if `replace`): the database is built
    /// under a temporary sibling name and renamed into place once complete.
    public func writeSQLite(to path: String, analyze: Bool = false, replace: Bool = false) throws {
        switch FileSystem.kind(of: path) {
        case .missing: break
        case .file where replace: break
        case .file: throw WorkloadError.output("'\(path)' already exists; pass --force to replace it")
        default: throw WorkloadError.output("'\(path)' exists and is not a file")
        }
        let temporary = FileSystem.temporarySibling(of: path)
        FileSystem.remove(temporary)
        do {
            do {
                let database = try SQLiteDatabase(path: temporary, create: true)
                // A temporary file that is renamed only when complete needs no journal.
                try database.executeScript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
                try load(into: database, analyze: analyze)
            }
            try FileSystem.rename(temporary, to: path)
        } catch {
            FileSystem.remove(temporary)
            throw error
        }
    }

    /// The tables loaded into a fresh in-memory SQLite database, as query sources.
    public func sqliteRelations(analyze: Bool = false) throws -> (SQLiteDatabase, RelationCatalog) {
        let database = try SQLiteDatabase.inMemory()
        let tables = try load(into: database, analyze: analyze)
        return (database, RelationCatalog(tables.mapValues { Relation(source: $0) }))
    }

    private func primaryKey(of table: DatasetTable) -> [Attribute] {
        guard let first = table.indexedAttributes.first, first.name.hasSuffix("id"),
              let i = table.scheme.index(of: first) else { return [] }
        var seen = Set<Value>()
        seen.reserveCapacity(table.rows.count)
        for row in table.rows where !seen.insert(row.values[i]).inserted { return [] }
        return [first]
    }
}
