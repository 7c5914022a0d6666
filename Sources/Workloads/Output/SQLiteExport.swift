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
        try DatasetTable.load(tables, into: database, analyze: analyze)
    }

    /// Writes an SQLite file at `path` (replaced only if `replace`): the database is built
    /// under a temporary sibling name and renamed into place once complete.
    public func writeSQLite(to path: String, analyze: Bool = false, replace: Bool = false) throws {
        try SQLiteDestination(path: path, analyze: analyze, replace: replace).write { sink in
            try stream(into: StreamingTableWriter(sink: sink, hashing: false))
        }
    }

    /// Passes every table, in name order, through `writer` (rows in stored order).
    func stream(into writer: StreamingTableWriter) throws {
        for t in tables {
            try writer.begin(TableHeader(
                name: t.name, scheme: t.scheme, rowCount: t.rowCount,
                indexedAttributes: t.indexedAttributes, primaryKey: primaryKey(of: t)))
            for p in 0..<t.rowCount { try writer.append(t.store.row(at: p)) }
            try writer.end()
        }
    }

    /// The tables loaded into a fresh in-memory SQLite database, as query sources.
    public func sqliteRelations(analyze: Bool = false) throws -> (SQLiteDatabase, RelationCatalog) {
        let database = try SQLiteDatabase.inMemory()
        let tables = try load(into: database, analyze: analyze)
        return (database, RelationCatalog(tables.mapValues { Relation(source: $0) }))
    }

    private func primaryKey(of table: DatasetTable) -> [Attribute] { table.primaryKey }
}

extension DatasetTable {
    /// Loads `tables` into `database` (see `Dataset.load(into:analyze:)`); baseline engines
    /// load verification cases' tables this way too.
    @discardableResult
    public static func load(_ tables: [DatasetTable], into database: SQLiteDatabase, analyze: Bool = false) throws -> [String: SQLiteTable] {
        var out: [String: SQLiteTable] = [:]
        try database.transaction {
            for t in tables {
                let table = try database.createTable(t.name, scheme: t.scheme, primaryKey: t.primaryKey)
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

    /// The primary key: an `id`-like first indexed attribute whose values are unique, else
    /// none (the whole row is the key).
    public var primaryKey: [Attribute] {
        guard let first = keyCandidate, let i = scheme.index(of: first) else { return [] }
        var seen = Set<Value>()
        seen.reserveCapacity(rowCount)
        for p in 0..<rowCount where !seen.insert(store.value(row: p, column: i)).inserted { return [] }
        return [first]
    }

    /// The attribute `primaryKey` is when its values are unique: the first indexed
    /// attribute, when it names the table's own rows, `id` or the table's name in the
    /// singular with `_id` (`items.item_id`). Another `_id` refers to other rows
    /// (`equipment.owner_id`, `item_tags.item_id`): unique in a small dataset only by
    /// chance, and taking it for a key would refuse a second row with the same reference.
    public var keyCandidate: Attribute? {
        guard let first = indexedAttributes.first else { return nil }
        let own = (name.hasSuffix("s") ? String(name.dropLast()) : name) + "_id"
        return first.name == "id" || first.name == own ? first : nil
    }
}

/// An SQLite file being written: built under a temporary sibling name (no journal, since it
/// is renamed into place only when complete) and removed again on any failure, the disk
/// filling up included, so `path` is either the whole database or untouched.
public struct SQLiteDestination: Sendable {
    public let path: String
    public let analyze: Bool
    public let replace: Bool

    public init(path: String, analyze: Bool = false, replace: Bool = false) {
        self.path = path
        self.analyze = analyze
        self.replace = replace
    }

    /// Runs `body` with a sink into the temporary database, all in one transaction, then
    /// runs ANALYZE if asked and renames the file into place.
    public func write<T>(_ body: (TableSink) throws -> T) throws -> T {
        switch FileSystem.kind(of: path) {
        case .missing: break
        case .file where replace: break
        case .file: throw WorkloadError.output("'\(path)' already exists; pass --force to replace it")
        default: throw WorkloadError.output("'\(path)' exists and is not a file")
        }
        let temporary = FileSystem.temporarySibling(of: path)
        FileSystem.remove(temporary)
        do {
            let result: T
            let cleanup = SignalCleanup.shared.add { FileSystem.remove(temporary) }
            defer { SignalCleanup.shared.remove(cleanup) }
            do {
                let database = try SQLiteDatabase(path: temporary, create: true)
                try database.executeScript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
                let sink = SQLiteTableSink(database: database)
                result = try database.transaction { try body(sink) }
                if analyze { try database.analyze() }
            }
            // Without --force a database that appeared meanwhile is not replaced.
            try FileSystem.rename(temporary, to: path, replacing: replace)
            return result
        } catch let error as WorkloadError {
            FileSystem.remove(temporary)
            throw error
        } catch {
            FileSystem.remove(temporary)
            throw WorkloadError.output("cannot write SQLite database \(Printable.quoted(path)) (nothing was left behind): \(error)")
        }
    }
}

/// Creates each table, inserts its rows chunk by chunk through one prepared INSERT, then
/// creates the indexes the key does not already give (the order `Dataset.load` uses).
final class SQLiteTableSink: TableSink {
    private let database: SQLiteDatabase
    private var table: SQLiteTable?
    private var header: TableHeader?

    init(database: SQLiteDatabase) { self.database = database }

    func begin(_ table: TableHeader) throws {
        self.table = try database.createTable(table.name, scheme: table.scheme, primaryKey: table.primaryKey)
        header = table
    }

    func write(_ rows: [Row]) throws {
        guard let table else { throw WorkloadError.output("rows written outside a table") }
        try table.bulkLoad(rows, assumeUnique: true)
    }

    func end() throws {
        guard let table, let header else { throw WorkloadError.output("end of a table never begun") }
        for a in header.indexedAttributes where !table.leadingIndexedAttributes.contains(a) {
            try table.createIndex(on: [a])
        }
        self.table = nil
        self.header = nil
    }
}
