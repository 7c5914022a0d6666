import Relational

/// How one SQL dialect writes what the translation needs, keeping the testbed's value
/// semantics exactly (see README, "Values"):
///
/// - null is an ordinary value: equality is null-safe (`IS` in SQLite, `IS NOT DISTINCT
///   FROM` elsewhere), and null sorts before every other value;
/// - one total order across types, `null < numbers < text < blob`, integers and reals
///   compared by value (`3 == 3.0`), text and blobs by bytes. Dialects with typed columns
///   hold one `ColumnType` per column; a comparison across classes is decided by the
///   translator from the types, never by the engine's casts;
/// - set semantics (`DISTINCT`, `UNION`, `INTERSECT`, `EXCEPT`);
/// - constants are bound parameters only, identifiers are always quoted.
///
/// These names are stable: engines in other files implement this protocol.
public protocol SQLDialect: Sendable {
    /// The dialect's name in messages (`SQLite`, `DuckDB`, `PostgreSQL`).
    var name: String { get }
    /// `name` as a quoted identifier (any text, keywords and quotes included).
    func quoteIdentifier(_ name: String) -> String
    /// The placeholder of the parameter at `index` (1-based), e.g. `?` or `$3`.
    func parameter(_ index: Int) -> String
    /// Null-safe equality of two expressions, true or false, never NULL.
    func nullSafeEqual(_ a: String, _ b: String) -> String
    /// Null-safe inequality of two expressions, true or false, never NULL.
    func nullSafeNotEqual(_ a: String, _ b: String) -> String
    /// The boolean constants (`1`/`0` in SQLite, `TRUE`/`FALSE` elsewhere).
    var trueLiteral: String { get }
    var falseLiteral: String { get }
    /// The column type that holds `type`'s values exactly, or nil when the dialect cannot
    /// hold them in one column (then `ColumnType.refusal` says why).
    func columnTypeName(_ type: ColumnType) -> String?
    /// `expression` (of `type`) made to compare in the testbed's order: text by its bytes
    /// (e.g. `COLLATE "C"`); most types need nothing.
    func ordered(_ expression: String, _ type: ColumnType) -> String
    /// A typed NULL for an empty literal relation's column.
    func typedNull(_ type: ColumnType) -> String
    /// The statement that asks for the plan of `sql`, JSON where the dialect offers it, and
    /// the format of its answer (`json` or `txt`).
    func explain(_ sql: String) -> (sql: String, format: String)
}

extension SQLDialect {
    public func ordered(_ expression: String, _ type: ColumnType) -> String { expression }
    public func typedNull(_ type: ColumnType) -> String {
        columnTypeName(type).map { "CAST(NULL AS \($0))" } ?? "NULL"
    }
}
