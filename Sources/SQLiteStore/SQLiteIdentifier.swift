import Relational

/// Quotes an identifier for SQL: wrapped in double quotes, embedded double quotes doubled.
/// Every table, column and index name reaches SQLite this way, never spliced bare.
///
/// Works on Unicode scalars, not Characters: a quote followed by a combining mark is one
/// Character in Swift but still a bare `"` byte to SQLite's tokenizer.
func quoteIdentifier(_ name: String) -> String {
    var out = String.UnicodeScalarView()
    out.append("\"")
    for scalar in name.unicodeScalars {
        out.append(scalar)
        if scalar == "\"" { out.append("\"") }
    }
    out.append("\"")
    return String(out)
}

extension Attribute {
    /// The attribute as a quoted SQL column name.
    var quotedSQL: String { quoteIdentifier(name) }
}

/// The comma-separated placeholder list `?, ?, ?`.
func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
}
