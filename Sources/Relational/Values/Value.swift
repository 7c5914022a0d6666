/// A single datum, mirroring SQLite's storage classes.
///
/// Null is an ordinary value: equal to itself, hashable, and ordered first.
/// The one total order used everywhere (memory tables, printing, SQL translation) is
/// SQLite's: `null < numbers < text < blob`. Integers and reals form one numeric class and
/// compare by exact numeric value, so `3 == 3.0` (as in SQLite, and hashed alike).
/// Text compares by its UTF-8 bytes (SQLite's BINARY collation), not by Unicode
/// canonical equivalence. NaN is not a value SQLite can store; here it sorts before every
/// other number and equals only itself.
public enum Value: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// Rank of the storage class in the total order.
    var typeRank: Int {
        switch self {
        case .null: return 0
        case .integer, .real: return 1
        case .text: return 2
        case .blob: return 3
        }
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The name of the value's storage class, for messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .integer: return "integer"
        case .real: return "real"
        case .text: return "text"
        case .blob: return "blob"
        }
    }
}

extension Value: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByNilLiteral
{
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(nilLiteral: ()) { self = .null }
}
