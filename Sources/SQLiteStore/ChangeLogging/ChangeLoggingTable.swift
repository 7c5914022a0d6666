import Relational

/// An SQLite table seen through a log of unsaved changes (seed 001's
/// `ChangeLoggingDatabase`): writes go to the log in memory, reads see the table as the
/// log leaves it, and nothing reaches the file until the owning database saves.
public final class ChangeLoggingTable: MutableSource {
    public let base: SQLiteTable
    /// Rows in the log's view that the file lacks, and rows in the file the view lacks.
    public private(set) var added: Set<Row> = []
    public private(set) var removed: Set<Row> = []

    init(base: SQLiteTable) { self.base = base }

    public var scheme: Scheme { base.scheme }
    public var sourceName: String { base.sourceName }
    public var primaryKey: [Attribute] { base.primaryKey }
    public var hasUnsavedChanges: Bool { !added.isEmpty || !removed.isEmpty }

    public func insertRows(_ rows: [Row]) throws {
        for row in rows where removed.remove(row) == nil { added.insert(row) }
    }

    public func removeRows(_ rows: [Row]) throws {
        for row in rows where added.remove(row) == nil { removed.insert(row) }
    }

    public func makeCursor(filter: Predicate?) throws -> any RowCursor {
        let test = try filter.map { try CompiledPredicate($0, scheme: scheme) }
        var rows = try base.fetchAll(filter: filter).filter { !removed.contains($0) }
        rows += added.sorted().filter { test?.matches($0) ?? true }
        return ArrayCursor(rows)
    }

    public func canFetchSelectively(_ filter: Predicate) -> Bool { base.canFetchSelectively(filter) }

    public func estimatedCount(filter: Predicate?) -> Int? {
        base.estimatedCount(filter: filter).map { $0 + added.count }
    }

    /// Writes the log into the file (inside the caller's SQLite transaction) and empties it.
    func writeLog() throws {
        try base.removeRows(removed.sorted())
        try base.insertRows(added.sorted())
    }

    func clearLog() {
        added = []
        removed = []
    }
}

/// Change-logging tables over one SQLite database. `save()` writes every table's log in
/// one SQLite transaction: the file holds either everything before the save or everything
/// after it, never part of a save.
public final class ChangeLoggingDatabase {
    public let database: SQLiteDatabase
    public private(set) var tables: [ChangeLoggingTable] = []
    /// Called after each table's log is written during `save`, with how many are done;
    /// tests throw from it to simulate a crash between the steps.
    var afterTableWritten: ((Int) throws -> Void)?

    public init(_ database: SQLiteDatabase) { self.database = database }

    /// The change-logging view of a table of the database.
    public func table(named name: String) throws -> ChangeLoggingTable {
        if let existing = tables.first(where: { $0.sourceName == name }) { return existing }
        let t = ChangeLoggingTable(base: try database.table(named: name))
        tables.append(t)
        return t
    }

    public var hasUnsavedChanges: Bool { tables.contains(where: \.hasUnsavedChanges) }

    /// Writes every table's unsaved changes in one SQLite transaction; on failure the file
    /// and the logs are left as they were.
    public func save() throws {
        try database.transaction {
            for (i, t) in tables.enumerated() {
                try t.writeLog()
                try afterTableWritten?(i + 1)
            }
        }
        for t in tables { t.clearLog() }
    }
}
