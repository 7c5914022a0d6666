import Relational

/// One node of a case graph. Operands are indices of earlier nodes, so a node used by two
/// parents is one shared node, as in a `Relation` graph.
public enum CaseOperation: Hashable, Sendable {
    case table(Int)
    case union(Int, Int)
    case intersection(Int, Int)
    case difference(Int, Int)
    case select(Int, Predicate)
    /// Keeps the listed attributes.
    case project(Int, [Attribute])
    /// Old name → new name.
    case rename(Int, [Attribute: Attribute])
    case join(Int, Int, [JoinPair])

    public var operands: [Int] {
        switch self {
        case .table: return []
        case let .union(a, b), let .intersection(a, b), let .difference(a, b), let .join(a, b, _): return [a, b]
        case let .select(a, _), let .project(a, _), let .rename(a, _): return [a]
        }
    }

    /// The same operation with every operand index passed through `map`.
    public func mappingOperands(_ map: (Int) -> Int) -> CaseOperation {
        switch self {
        case .table: return self
        case let .union(a, b): return .union(map(a), map(b))
        case let .intersection(a, b): return .intersection(map(a), map(b))
        case let .difference(a, b): return .difference(map(a), map(b))
        case let .select(a, p): return .select(map(a), p)
        case let .project(a, attributes): return .project(map(a), attributes)
        case let .rename(a, m): return .rename(map(a), m)
        case let .join(a, b, pairs): return .join(map(a), map(b), pairs)
        }
    }

    /// Builds the lazy relation of this operation over already built operands.
    func relation(operand built: (Int) throws -> Relation, table: (Int) throws -> Relation) throws -> Relation {
        switch self {
        case let .table(t): return try table(t)
        case let .union(a, b): return try built(a).union(built(b))
        case let .intersection(a, b): return try built(a).intersection(built(b))
        case let .difference(a, b): return try built(a).difference(built(b))
        case let .select(a, p): return try built(a).select(p)
        case let .project(a, attributes): return try built(a).project(attributes)
        case let .rename(a, m): return try built(a).rename(m)
        case let .join(a, b, pairs): return try built(a).equijoin(built(b), matching: pairs)
        }
    }
}
