/// Why talking to PostgreSQL failed. The description is a complete sentence for the user
/// (the command line prefixes it with `testbed: `).
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// initdb, pg_ctl or postgres is not installed (or not where it was said to be).
        case notInstalled
        /// The server could not be set up or started (initdb, pg_ctl start, socket in use, ...).
        case startup
        /// The client could not connect, or lost its connection (a server killed mid-run).
        case connection
        /// The server rejected or failed a statement.
        case statement
        /// A value or result that cannot be carried faithfully between the testbed and PostgreSQL.
        case unsupportedValue
        /// The API was called with arguments that cannot work.
        case usage
    }

    public let kind: Kind
    public let message: String
    /// PostgreSQL's SQLSTATE for statement errors (e.g. `42P01`), when the server sent one.
    public let sqlState: String?

    public init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
    }

    public var description: String { message }

    /// The command that installs PostgreSQL and libpq, named in every `notInstalled` message.
    public static let installHint = "bash scripts/setup.sh --engines"
}
