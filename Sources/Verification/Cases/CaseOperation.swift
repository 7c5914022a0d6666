import Relational

/// One node of a case graph: a table, or an operator over earlier nodes. Operands are
/// indices of earlier nodes, so a node used by two parents is one shared node, as in a
/// `Relation` graph.
public enum CaseOperation: Hashable, Sendable {
    case table(Int)
    case apply(Operator, [Int])

    public var operands: [Int] {
        switch self {
        case .table: return []
        case let .apply(_, operands): return operands
        }
    }

    /// The same node with every operand index passed through `map`.
    public func mappingOperands(_ map: (Int) -> Int) -> CaseOperation {
        switch self {
        case .table: return self
        case let .apply(op, operands): return .apply(op, operands.map(map))
        }
    }

    /// Builds the lazy relation of this node over already built operands.
    func relation(operand built: (Int) throws -> Relation, table: (Int) throws -> Relation) throws -> Relation {
        switch self {
        case let .table(t): return try table(t)
        case let .apply(op, operands): return try Relation(applying: op, to: operands.map(built))
        }
    }

    /// `operand select p`, the partition oracle's node.
    static func select(_ operand: Int, _ predicate: Predicate) -> CaseOperation {
        .apply(.select(predicate), [operand])
    }
}
