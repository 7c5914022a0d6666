/// A node of a lazy relational-algebra expression. Building one only checks schemes; rows
/// are computed when someone asks (the reference evaluator, the query engine, SQLite).
///
/// Identity matters: the same `Relation` object used by two parents is one shared node,
/// which is what the engine's subtree copying is about.
public final class Relation {
    public let operation: Operation
    public let scheme: Scheme
    /// A name for plans and messages (`let` bindings in the query language set it).
    public var name: String?

    init(_ operation: Operation, scheme: Scheme, name: String? = nil) {
        self.operation = operation
        self.scheme = scheme
        self.name = name
    }

    /// A relation whose rows live in a source (memory table, SQLite table, ...).
    public convenience init(source: any SourceRelation) {
        self.init(.source(source), scheme: source.scheme, name: source.sourceName)
    }

    /// Operands in order (empty for sources).
    public var operands: [Relation] { operation.operands }
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

public enum Operation {
    case source(any SourceRelation)
    case union(Relation, Relation)
    case intersection(Relation, Relation)
    case difference(Relation, Relation)
    case select(Relation, Predicate)
    /// Keeps the attributes of the relation's own scheme; duplicates coalesce.
    case project(Relation)
    /// Old name → new name.
    case rename(Relation, [Attribute: Attribute])
    /// Equijoin on attribute pairs; a pair of equal names yields one output attribute.
    /// A natural join is the equijoin on the attributes both sides share.
    case join(Relation, Relation, [JoinPair])

    public var operands: [Relation] {
        switch self {
        case .source: return []
        case let .union(a, b), let .intersection(a, b), let .difference(a, b), let .join(a, b, _):
            return [a, b]
        case let .select(a, _), let .project(a), let .rename(a, _):
            return [a]
        }
    }

    /// A short label such as `union`, `select(id == 3)`, `join(id = owner_id)`.
    public var label: String {
        switch self {
        case let .source(s): return "source \(s.sourceName)"
        case .union: return "union"
        case .intersection: return "intersect"
        case .difference: return "minus"
        case let .select(_, p): return "select(\(p))"
        case .project: return "project"
        case let .rename(_, map): return Operation.renameLabel(map)
        case let .join(_, _, pairs): return Operation.joinLabel(pairs)
        }
    }

    /// `rename(a -> b, ...)`, pairs sorted by old name (shared with plan-node labels).
    public static func renameLabel(_ map: [Attribute: Attribute]) -> String {
        let pairs = map.sorted { $0.key < $1.key }.map { "\($0.key) -> \($0.value)" }
        return "rename(\(pairs.joined(separator: ", ")))"
    }

    /// `join(a = b, ...)` (shared with plan-node labels).
    public static func joinLabel(_ pairs: [JoinPair]) -> String {
        "join(\(pairs.map(\.description).joined(separator: ", ")))"
    }
}
