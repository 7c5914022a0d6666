import PostgresClient
import Relational

/// What PostgreSQL knows of one column: the storage class its non-null values have (one per
/// column, as PostgreSQL columns have one type) and whether it may hold null. The testbed's
/// order runs across classes (null < numbers < text < blob); a PostgreSQL column cannot mix
/// them, so every comparison between columns or with constants of different classes is
/// decided by the translator from the classes alone, and columns that mix text, numbers or
/// blobs are refused.
public struct ColumnKind: Sendable, Equatable, CustomStringConvertible {
    public enum Class: Int, Sendable, Comparable {
        /// Nothing but nulls seen: no type yet; takes the type of what it meets.
        case nullOnly = 0
        case integer = 1
        case real = 2
        case text = 3
        case blob = 4

        /// Rank in the testbed's order across classes (integers and reals are one class).
        var rank: Int {
            switch self {
            case .nullOnly: return 0
            case .integer, .real: return 1
            case .text: return 2
            case .blob: return 3
            }
        }

        public static func < (a: Class, b: Class) -> Bool { a.rawValue < b.rawValue }

        static func of(_ value: Value) -> Class {
            switch value {
            case .null: return .nullOnly
            case .integer: return .integer
            case .real: return .real
            case .text: return .text
            case .blob: return .blob
            }
        }

        /// The PostgreSQL type (null-only columns are carried as bigint until they meet another).
        var postgresType: PostgresType {
            switch self {
            case .nullOnly, .integer: return .bigint
            case .real: return .double
            case .text: return .text
            case .blob: return .bytea
            }
        }

        /// Whether values of the two classes compare by PostgreSQL's own operators.
        func comparable(with other: Class) -> Bool {
            self != .nullOnly && other != .nullOnly && rank == other.rank
        }

        var name: String {
            switch self {
            case .nullOnly: return "null"
            case .integer: return "integer"
            case .real: return "real"
            case .text: return "text"
            case .blob: return "blob"
            }
        }
    }

    public var type: Class
    public var nullable: Bool
    /// Whether the column may hold an integer beyond 2^53, which a double cannot hold
    /// exactly: such a column cannot share a column with reals (a union, intersection,
    /// difference or closure) or be compared with a real column, since PostgreSQL would
    /// compare it through a double (`9007199254740993 = 9007199254740992.0` holds there).
    public var inexactAsReal: Bool

    public init(_ type: Class, nullable: Bool, inexactAsReal: Bool = false) {
        self.type = type
        self.nullable = nullable || type == .nullOnly
        self.inexactAsReal = inexactAsReal
    }

    public var postgresType: PostgresType { type.postgresType }

    public var description: String { type.name + (nullable && type != .nullOnly ? " or null" : "") }

    /// The kind of a column holding `values`, or why PostgreSQL cannot hold them in one column.
    public static func of<S: Sequence>(_ values: S) -> Result<ColumnKind, MixedClasses> where S.Element == Value {
        var type = Class.nullOnly
        var nullable = false
        var inexact = false
        for value in values {
            let c = Class.of(value)
            if c == .nullOnly { nullable = true; continue }
            guard let merged = merge(type, c) else { return .failure(MixedClasses(first: type, second: c)) }
            type = merged
            if case let .integer(i) = value, Double(exactly: i) == nil { inexact = true }
        }
        return .success(ColumnKind(type, nullable: nullable, inexactAsReal: inexact))
    }

    /// The class of a column holding both; integers widen to reals (PostgreSQL's double
    /// precision; exact up to 2^53, and any integer that is not is refused when stored).
    static func merge(_ a: Class, _ b: Class) -> Class? {
        if a == .nullOnly { return b }
        if b == .nullOnly || a == b { return a }
        if a.rank == 1 && b.rank == 1 { return .real }
        return nil
    }

    /// The kind of a column that is the union of two (for union, intersect, minus).
    static func merge(_ a: ColumnKind, _ b: ColumnKind) -> ColumnKind? {
        merge(a.type, b.type).map { ColumnKind($0, nullable: a.nullable || b.nullable, inexactAsReal: a.inexactAsReal || b.inexactAsReal) }
    }

    /// Why PostgreSQL cannot hold or compare the two in one column exactly (an integer
    /// beyond 2^53 meets a real), or nil when it can.
    static func inexactMeeting(_ a: ColumnKind, _ b: ColumnKind) -> String? {
        func inexact(_ i: ColumnKind, _ r: ColumnKind) -> Bool { i.type == .integer && i.inexactAsReal && r.type == .real }
        guard inexact(a, b) || inexact(b, a) else { return nil }
        return "an integer column holding integers beyond 2^53 meets a real column; PostgreSQL would compare them "
            + "through doubles, which cannot hold those integers exactly"
    }

    public struct MixedClasses: Error, Sendable {
        public let first: Class
        public let second: Class
    }
}
