import Relational

/// What a column holds, in the testbed's storage classes: one class (and nulls), integers
/// and reals together (numbers, held as reals), only nulls, or a mix a typed dialect cannot
/// hold. Columns are typed from the data the generators produce: a scheme names attributes
/// only, and a generator's column is one class by construction.
public enum ColumnType: Hashable, Sendable, CustomStringConvertible {
    /// Only nulls (or no rows): fits any type.
    case null
    case integer
    case real
    case text
    case blob
    /// Values of more than one class (numbers count as one class); the set names them.
    case mixed(Set<String>)

    /// The class of one value.
    public static func of(_ value: Value) -> ColumnType {
        switch value {
        case .null: return .null
        case .integer: return .integer
        case .real: return .real
        case .text: return .text
        case .blob: return .blob
        }
    }

    /// The type of a column holding `values`.
    public static func of<S: Sequence>(_ values: S) -> ColumnType where S.Element == Value {
        var type = ColumnType.null
        for value in values {
            type = type.merged(with: .of(value))
            if case .mixed = type { return type }
        }
        return type
    }

    /// The type of a column holding the values of both (a union's column).
    public func merged(with other: ColumnType) -> ColumnType {
        switch (self, other) {
        case (.null, _): return other
        case (_, .null): return self
        case let (a, b) where a == b: return a
        case (.integer, .real), (.real, .integer): return .real
        default: return .mixed(classNames.union(other.classNames))
        }
    }

    /// The rank of the class in the total order (null 0, numbers 1, text 2, blob 3); nil for
    /// null and mixed columns.
    public var rank: Int? {
        switch self {
        case .integer, .real: return 1
        case .text: return 2
        case .blob: return 3
        case .null, .mixed: return nil
        }
    }

    public var isNumeric: Bool { self == .integer || self == .real }

    private var classNames: Set<String> {
        switch self {
        case .null: return []
        case .integer: return ["integer"]
        case .real: return ["real"]
        case .text: return ["text"]
        case .blob: return ["blob"]
        case let .mixed(names): return names
        }
    }

    public var description: String {
        switch self {
        case .null: return "null"
        case .integer: return "integer"
        case .real: return "real"
        case .text: return "text"
        case .blob: return "blob"
        case let .mixed(names): return "mixed (" + names.sorted().joined(separator: ", ") + ")"
        }
    }

    /// Why `dialect` cannot hold a column of this type named `column`.
    public func refusal(column: String, dialect: String) -> String {
        "column \(column) holds \(self) values; \(dialect) columns hold one type, so the testbed "
            + "cannot load or compute it there without changing its values (numbers may mix integers and reals; "
            + "text, numbers and blobs may not)"
    }
}
