/// DuckDB's dialect: typed columns (BIGINT, DOUBLE, VARCHAR, BLOB), `IS NOT DISTINCT FROM`
/// for null-safe equality, `?` parameters. VARCHAR and BLOB compare by bytes already.
public struct DuckDBDialect: SQLDialect {
    public init() {}
    public var name: String { "DuckDB" }
    public func quoteIdentifier(_ name: String) -> String { "\"" + name.replacingAll("\"", with: "\"\"") + "\"" }
    public func parameter(_ index: Int) -> String { "?" }
    public func nullSafeEqual(_ a: String, _ b: String) -> String { "\(a) IS NOT DISTINCT FROM \(b)" }
    public func nullSafeNotEqual(_ a: String, _ b: String) -> String { "\(a) IS DISTINCT FROM \(b)" }
    public var trueLiteral: String { "TRUE" }
    public var falseLiteral: String { "FALSE" }

    public func columnTypeName(_ type: ColumnType) -> String? {
        switch type {
        case .null, .integer: return "BIGINT"
        case .real: return "DOUBLE"
        case .text: return "VARCHAR"
        case .blob: return "BLOB"
        case .mixed: return nil
        }
    }

    public func explain(_ sql: String) -> (sql: String, format: String) { ("EXPLAIN (FORMAT JSON) " + sql, "json") }
}
