import Relational

/// SQLite's dialect: untyped columns, so every column holds any class and SQLite's own
/// cross-type order is the testbed's; `IS` is null-safe equality. The SQLite engine keeps
/// its own translator (`SQLTranslator`), which writes this dialect.
public struct SQLiteDialect: SQLDialect {
    public init() {}
    public var name: String { "SQLite" }
    public func quoteIdentifier(_ name: String) -> String { "\"" + name.replacingAll("\"", with: "\"\"") + "\"" }
    public func parameter(_ index: Int) -> String { "?" }
    public func nullSafeEqual(_ a: String, _ b: String) -> String { "\(a) IS \(b)" }
    public func nullSafeNotEqual(_ a: String, _ b: String) -> String { "\(a) IS NOT \(b)" }
    public var trueLiteral: String { "1" }
    public var falseLiteral: String { "0" }
    /// Columns without a declared type have no affinity: any mix of classes is held as is.
    public func columnTypeName(_ type: ColumnType) -> String? { "" }
    public func typedNull(_ type: ColumnType) -> String { "NULL" }
    public func explain(_ sql: String) -> (sql: String, format: String) { ("EXPLAIN QUERY PLAN " + sql, "txt") }
}

extension String {
    /// Every occurrence of `target` replaced (without Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(count)
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
