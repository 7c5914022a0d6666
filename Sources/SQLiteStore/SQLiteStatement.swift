import CSQLite
import Relational

/// One prepared statement. Finalized when released; the database's cache hands statements
/// out for reuse and takes them back reset and unbound.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    let databaseHandle: OpaquePointer

    init(database: OpaquePointer, sql: String) throws {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            let failure = SQLiteError.sqlite("preparing \(abbreviatedSQL(sql))", code: rc, db: database)
            // A plain error here is the statement's (a limit, a missing table), which callers
            // tell from a failure while running: the kind `prepare` documents.
            throw failure.kind == .execute ? SQLiteError(.prepare, failure.message, code: failure.code) : failure
        }
        self.handle = statement
        self.sql = sql
        self.databaseHandle = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Steps once: true when a row is ready, false when the statement is done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError.sqlite("running \(abbreviatedSQL(sql))", code: rc, db: databaseHandle)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs to completion, ignoring any rows.
    func run() throws {
        while try step() {}
    }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// Rows stepped in full-table scans since the last call (SQLITE_STMTSTATUS_FULLSCAN_STEP,
    /// read and reset).
    func takeFullScanSteps() -> Int {
        Int(sqlite3_stmt_status(handle, Int32(SQLITE_STMTSTATUS_FULLSCAN_STEP), 1))
    }

    /// Makes the statement ready for reuse with new bindings.
    func resetAndClear() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}
