import CSQLite
import FileSupport
import Relational

/// One connection to an SQLite database file (or `:memory:`).
///
/// Opening validates the file at once, so a file that is not a database, a missing
/// directory or a read-only location fails in `init` with a message naming the path, and a
/// failed open leaves no file behind. Prepared statements are cached by SQL text and reused.
/// Not thread-safe: use one connection per thread.
public final class SQLiteDatabase {
    /// The path as given (`:memory:` for an in-memory database).
    public let path: String
    public let isReadOnly: Bool
    let handle: OpaquePointer

    /// Statements run on this connection (cursors, queries, scripts), for tests that bound
    /// how much SQL a piece of work issues.
    public private(set) var statementsRun = 0
    /// Statements compiled (cache misses of `checkout`).
    public private(set) var statementsPrepared = 0

    private var statementCache: [String: SQLiteStatement] = [:]
    private let statementCacheLimit = 256
    private var savepointDepth = 0
    /// Bumped whenever a transaction rolls back, so cached counts notice (see `dataVersion`).
    private var rollbacks = 0
    /// Table objects handed out, by lower-cased name (SQLite names are case-insensitive), so
    /// everyone shares one object per table and its statistics.
    private var tables: [String: WeakTable] = [:]
    /// sqlite_stat1, loaded lazily: table → index → numbers (row count, then avg rows per key prefix).
    private var statistics: [String: [String: [Int]]]?

    /// Opens (or, with `create`, creates) the database at `path`; `:memory:` gives a private
    /// in-memory database. `readOnly` opens without write access; it excludes `create`.
    public init(path: String, readOnly: Bool = false, create: Bool = false) throws {
        guard !(readOnly && create) else {
            throw SQLiteError(.usage, "opening '\(path)': readOnly and create exclude each other")
        }
        self.path = path
        self.isReadOnly = readOnly
        let inMemory = path == ":memory:" || path.isEmpty
        let existedBefore = inMemory || FileSystem.kind(of: path) != .missing

        if !inMemory {
            switch FileSystem.kind(of: path) {
            case .directory:
                throw SQLiteError(.open, "cannot open database '\(path)': it is a directory")
            case .missing where !create:
                throw SQLiteError(.open,
                    "cannot open database '\(path)': the file does not exist (open with create: true to create it)")
            case .missing where FileSystem.kind(of: FileSystem.parentDirectory(of: path)) != .directory:
                throw SQLiteError(.open,
                    "cannot create database '\(path)': the directory '\(FileSystem.parentDirectory(of: path))' does not exist")
            default:
                break
            }
        }

        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create { flags |= SQLITE_OPEN_CREATE }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        func fail(_ error: SQLiteError) -> SQLiteError {
            sqlite3_close_v2(db)
            // Nothing half-written: remove a file this attempt created, if it is still empty.
            if !existedBefore, FileSystem.size(of: path) == 0 { FileSystem.remove(path) }
            return error
        }
        guard rc == SQLITE_OK, let db else {
            let verb = create ? "cannot open or create database" : "cannot open database"
            throw fail(SQLiteError.sqlite("\(verb) '\(path)' (read-only location or no permission?)",
                code: rc, db: db))
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
        // Reading the schema makes SQLite look at the file now, not at the first query.
        let check = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
        if check != SQLITE_OK {
            let what = (check & 0xff) == SQLITE_NOTADB ? "'\(path)' is not an SQLite database" : "cannot read database '\(path)'"
            throw fail(SQLiteError.sqlite(what, code: check, db: db))
        }
        if !readOnly && sqlite3_db_readonly(db, "main") == 1 {
            throw fail(SQLiteError(.readOnly,
                "cannot open database '\(path)' for writing: the file or its location is read-only (open with readOnly: true to read it)"))
        }
        self.handle = db
    }

    /// A fresh private in-memory database.
    public static func inMemory() throws -> SQLiteDatabase {
        try SQLiteDatabase(path: ":memory:")
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The SQLite library version, e.g. "3.40.1".
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    // MARK: Statements

    /// A prepared statement for `sql`, from the cache when one is free. Give it back with `checkin`.
    func checkout(_ sql: String) throws -> SQLiteStatement {
        statementsRun += 1
        if let cached = statementCache.removeValue(forKey: sql) { return cached }
        statementsPrepared += 1
        return try SQLiteStatement(database: handle, sql: sql)
    }

    /// Returns a statement to the cache, reset and unbound (or finalizes it if the cache is full).
    func checkin(_ statement: SQLiteStatement) {
        statement.resetAndClear()
        if statementCache[statement.sql] == nil && statementCache.count < statementCacheLimit {
            statementCache[statement.sql] = statement
        }
    }

    /// Runs `body` with a bound, cached statement, then resets it for reuse.
    func withStatement<T>(_ sql: String, _ parameters: [Value], _ body: (SQLiteStatement) throws -> T) throws -> T {
        let statement = try checkout(sql)
        defer { checkin(statement) }
        try statement.bind(parameters)
        return try body(statement)
    }

    // MARK: Running SQL

    /// Runs one statement with bound parameters and returns its rows (values in result-column order).
    public func query(_ sql: String, _ parameters: [Value] = []) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(sql, parameters) { rows.append($0) }
        return rows
    }

    /// Runs one statement with bound parameters, handing each row to `body` as it is stepped.
    public func forEachRow(_ sql: String, _ parameters: [Value] = [], _ body: (Row) throws -> Void) throws {
        try withStatement(sql, parameters) { statement in
            let width = statement.columnCount
            while try statement.step() { try body(statement.row(width: width)) }
        }
    }

    /// Runs one statement with bound parameters and returns how many rows it changed.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [Value] = []) throws -> Int {
        try withStatement(sql, parameters) { statement in
            try statement.run()
            return Int(sqlite3_changes(handle))
        }
    }

    /// Runs a script of several statements without parameters (schema set-up, pragmas).
    public func executeScript(_ sql: String) throws {
        statementsRun += 1
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let text = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(errorMessage)
            throw SQLiteError(SQLiteError.kind(for: rc),
                "running \(abbreviatedSQL(sql)) on '\(path)': \(text) (SQLite code \(rc))", code: rc)
        }
    }

    // MARK: Transactions

    /// Runs `body` in a transaction (a savepoint, so transactions nest). If `body` throws,
    /// every change it made is rolled back and the error is rethrown.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let name = "querytestbed_\(savepointDepth)"
        try executeScript("SAVEPOINT \(name)")
        savepointDepth += 1
        let result: T
        do {
            result = try body()
        } catch {
            savepointDepth -= 1
            rollback(to: name)
            throw error
        }
        savepointDepth -= 1
        do {
            try executeScript("RELEASE \(name)")
        } catch {
            rollback(to: name)
            throw error
        }
        return result
    }

    private func rollback(to name: String) {
        rollbacks += 1
        // If these fail the connection is in autocommit already; nothing is left to undo.
        _ = sqlite3_exec(handle, "ROLLBACK TO \(name); RELEASE \(name)", nil, nil, nil)
    }

    /// True while a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Changes whenever rows may have changed through this connection: cached counts compare it.
    var dataVersion: Int { Int(sqlite3_total_changes(handle)) &+ (rollbacks << 40) }

    // MARK: Statistics

    /// Runs ANALYZE, so estimates and SQLite's planner use sqlite_stat1.
    public func analyze() throws {
        try executeScript("ANALYZE")
        statistics = nil
    }

    /// sqlite_stat1 numbers for `index` of `table` (lower-cased names), if ANALYZE has run.
    func stat1(table: String, index: String) -> [Int]? {
        if statistics == nil { statistics = loadStatistics() }
        return statistics?[table.lowercased()]?[index.lowercased()]
    }

    private func loadStatistics() -> [String: [String: [Int]]] {
        var out: [String: [String: [Int]]] = [:]
        guard let present = try? query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'"),
              !present.isEmpty,
              let rows = try? query("SELECT tbl, idx, stat FROM sqlite_stat1")
        else { return out }
        for row in rows {
            guard case let .text(table) = row[0], case let .text(stat) = row[2] else { continue }
            var index = ""
            if case let .text(name) = row[1] { index = name }
            let numbers = stat.split(separator: " ").compactMap { Int($0) }
            out[table.lowercased(), default: [:]][index.lowercased()] = numbers
        }
        return out
    }

    // MARK: Table registry

    func registeredTable(_ name: String) -> SQLiteTable? {
        tables[name.lowercased()]?.table
    }

    func register(_ table: SQLiteTable) {
        tables[table.sourceName.lowercased()] = WeakTable(table: table)
    }

    func unregister(_ name: String) {
        tables[name.lowercased()] = nil
    }
}

private struct WeakTable {
    weak var table: SQLiteTable?
}
