/// Spelling of SQL text for PostgreSQL.
public enum PostgresSQL {
    /// The longest identifier PostgreSQL keeps (NAMEDATALEN - 1 bytes); longer ones are
    /// silently truncated by the server, so two long names could become one.
    public static let identifierLimit = 63

    /// `name` as a quoted identifier: in double quotes, with double quotes doubled. Any
    /// name, keywords and upper case included, then means itself.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Why `name` cannot be a PostgreSQL identifier, or nil when it can.
    public static func identifierProblem(_ name: String) -> String? {
        if name.isEmpty { return "an empty name" }
        if name.utf8.contains(0) { return "the NUL character" }
        if name.utf8.count > identifierLimit {
            return "\(name.utf8.count) bytes, more than PostgreSQL's \(identifierLimit) (it would truncate the name)"
        }
        return nil
    }
}
