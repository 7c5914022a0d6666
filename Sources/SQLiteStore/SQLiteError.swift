import CSQLite
import Relational

/// An error from the SQLite layer. The message always says what was being done (opening a
/// path, preparing or running a statement, reading a table) and, when SQLite reported the
/// failure, SQLite's own message and result code.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable {
        /// The database file could not be opened or created.
        case open
        /// The file exists but is not an SQLite database.
        case notADatabase
        /// A write was refused because the database or its location is read-only.
        case readOnly
        /// SQLite rejected a statement while preparing it.
        case prepare
        /// A statement failed while running.
        case execute
        /// A constraint (primary key, uniqueness) was violated.
        case constraint
        /// No table of that name exists.
        case noSuchTable
        /// An existing table has a different scheme than the one asked for.
        case schemeMismatch
        /// A value SQLite cannot store faithfully (NaN).
        case unsupportedValue
        /// A relation cannot be translated to SQL (foreign sources, mixed databases, ...).
        case translation
        /// The API was called with arguments that cannot work.
        case usage
    }

    public let kind: Kind
    /// SQLite's extended result code, when SQLite reported the failure.
    public let code: Int32?
    /// The full human-readable message.
    public let message: String

    public init(_ kind: Kind, _ message: String, code: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.code = code
    }

    public var description: String { message }

    /// An error for a failed SQLite call: `context` says what was being done, SQLite's own
    /// message and result code are appended, and the kind follows from the code.
    static func sqlite(_ context: String, code: Int32, db: OpaquePointer?) -> SQLiteError {
        let sqliteMessage = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        return SQLiteError(kind(for: code), "\(context): \(sqliteMessage) (SQLite code \(code))", code: code)
    }

    static func kind(for code: Int32) -> Kind {
        switch code & 0xff {
        case SQLITE_NOTADB: return .notADatabase
        case SQLITE_READONLY: return .readOnly
        case SQLITE_CONSTRAINT: return .constraint
        case SQLITE_CANTOPEN: return .open
        default: return .execute
        }
    }
}

/// Shortens long SQL for messages: the start of the statement is what identifies it.
func abbreviatedSQL(_ sql: String, limit: Int = 300) -> String {
    sql.count <= limit ? sql : String(sql.prefix(limit)) + " …"
}
