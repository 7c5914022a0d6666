import Relational

/// The column types the testbed stores in PostgreSQL, one per storage class of `Value`.
/// Integers and reals are separate types there (`bigint` and `double precision`), so a
/// column is one of them; `Value`'s null goes into any column.
public enum PostgresType: String, Sendable, CaseIterable {
    case bigint
    case double = "double precision"
    case text
    case bytea

    /// The type's object id (pg_type.oid), fixed for built-in types.
    public var oid: UInt32 {
        switch self {
        case .bigint: return 20
        case .double: return 701
        case .text: return 25
        case .bytea: return 17
        }
    }

    /// The SQL name, for CREATE TABLE and casts.
    public var sqlName: String { rawValue }

    /// The type a non-null value is bound as.
    public static func of(_ value: Value) -> PostgresType? {
        switch value {
        case .null: return nil
        case .integer: return .bigint
        case .real: return .double
        case .text: return .text
        case .blob: return .bytea
        }
    }
}
