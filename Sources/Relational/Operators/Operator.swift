/// The one list of relational operators. A lazy `Relation`, a plan node and a verification
/// case node each hold an `Operator` plus their own kind of operands (relations, node ids,
/// case indices); sources are leaves, not operators.
///
/// Every concern that depends on the operator is one exhaustive `switch` over this enum,
/// with no `default:`, so adding a case makes the compiler list each place to handle it.
/// README's "Adding an operator" walks through them.
public enum Operator: Hashable, Sendable {
    case union
    case intersection
    case difference
    case select(Predicate)
    /// Keeps the attributes of this scheme; duplicate rows coalesce.
    case project(Scheme)
    /// Old name → new name.
    case rename([Attribute: Attribute])
    /// Equijoin on attribute pairs; a pair of equal names yields one output attribute.
    /// A natural join is the equijoin on the attributes both sides share.
    case join([JoinPair])

    /// The operators without their arguments, for tests and generators that must cover
    /// every operator.
    public enum Kind: String, CaseIterable, Sendable {
        case union, intersection, difference, select, project, rename, join
    }

    public var kind: Kind {
        switch self {
        case .union: return .union
        case .intersection: return .intersection
        case .difference: return .difference
        case .select: return .select
        case .project: return .project
        case .rename: return .rename
        case .join: return .join
        }
    }

    /// Operands the operator takes in a relation expression. A plan graph may fold nested
    /// applications of a `isVariadic` operator into one node with any number (≥ 1).
    public var operandCount: Int {
        switch self {
        case .union, .intersection, .difference, .join: return 2
        case .select, .project, .rename: return 1
        }
    }

    /// Whether nested applications may fold into one node with any number of operands
    /// (the plan graph's n-ary union).
    public var isVariadic: Bool {
        switch self {
        case .union: return true
        case .intersection, .difference, .select, .project, .rename, .join: return false
        }
    }

    /// The operand counts a node applying this operator may have.
    public var arity: ClosedRange<Int> {
        isVariadic ? 1...Int.max : operandCount...operandCount
    }

    /// A short label for plans and messages: `union`, `select(id == 3)`, `join(id = owner_id)`.
    public var label: String {
        switch self {
        case .union: return "union"
        case .intersection: return "intersect"
        case .difference: return "minus"
        case let .select(p): return "select(\(p))"
        case .project: return "project"
        case let .rename(map):
            let pairs = map.sorted { $0.key < $1.key }.map { "\($0.key) -> \($0.value)" }
            return "rename(\(pairs.joined(separator: ", ")))"
        case let .join(pairs): return "join(\(pairs.map(\.description).joined(separator: ", ")))"
        }
    }
}

/// Match `left` of the left operand with `right` of the right operand.
public struct JoinPair: Hashable, Sendable, CustomStringConvertible {
    public let left: Attribute
    public let right: Attribute

    public init(_ left: Attribute, _ right: Attribute) {
        self.left = left
        self.right = right
    }

    public var description: String { "\(left) = \(right)" }
}
