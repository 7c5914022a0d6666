import Relational

/// Folds binary operators applied to one node twice: `x join x` (natural, every attribute
/// paired with itself) and `x intersect x` are `x`, so their parents point straight at `x`;
/// `x minus x` is empty, so it becomes `x select (false)`, which reads nothing of `x` where
/// select predicates reach the sources. Nodes feeding an output stay (as
/// `SingleOperandUnionElimination` leaves such unions). A removed node, and an operand that
/// nothing reads after a fold (the select of `(x select p) minus x`), is marked dead here:
/// left live, its edges would keep its children waiting on a parent that never gives a
/// filter, and `union-flattening`'s orphan collection may be switched off.
public struct SelfOperandRewrite: OptimizerPass {
    public let name = "self-operand-folding"

    public init() {}

    public func run(_ graph: inout PlanGraph) -> Int {
        var changes = 0
        // Until nothing changes: folding `t1 join t1` makes `(t1 join t1) join t1` one more.
        var changed = true
        while changed {
            changed = false
            for id in graph.liveNodeIDs {
                guard let folded = Self.folded(graph[id], in: graph) else { continue }
                let operands = graph[id].children
                switch folded {
                case let .operand(only):
                    graph.redirectParents(of: id, to: only)
                    graph.kill(id)
                case let .empty(of: only):
                    graph.setChildren(of: id, to: [only])
                    graph.nodes[id].operation = .apply(.select(.false))
                }
                OrphanCollection.collect(from: operands, in: &graph)
                changes += 1
                changed = true
            }
        }
        return changes
    }

    enum Folded {
        /// The node equals this operand.
        case operand(NodeID)
        /// The node is empty: no row of this operand.
        case empty(of: NodeID)
    }

    /// What `node`, a binary operator over one node twice, folds to; nil for any other node.
    /// Two more shapes fold: `(x select p) minus x` is empty, and a natural join of a node
    /// with a projection straight over it, `x join (x project [a])`, is the node (each row
    /// meets its own projection, and only that). `x join (x select p)` and `x intersect (x
    /// select p)`, which are `x select p`, are left: over the hunt corpus, pointing their
    /// parents at the select read fewer rows on 908 cases but more on 18, three of them from
    /// nothing or 2 rows to 51–87 (the select's filter then reaches the source before a
    /// join's keys, and the source is read whole to break the wait).
    static func folded(_ node: PlanNode, in graph: PlanGraph) -> Folded? {
        guard node.isLive, node.outputs.isEmpty, !node.parents.isEmpty, node.children.count == 2 else { return nil }
        let (left, right) = (node.children[0], node.children[1])
        func isProject(_ id: NodeID, over other: NodeID) -> Bool {
            guard graph[id].children == [other], case .apply(.project) = graph[id].operation else { return false }
            return true
        }
        switch node.operation {
        case .apply(.intersection):
            return left == right ? .operand(left) : nil
        case let .apply(.join(pairs)) where pairs.allSatisfy({ $0.left == $0.right }):
            if left == right || isProject(right, over: left) { return .operand(left) }
            return isProject(left, over: right) ? .operand(right) : nil
        case .apply(.difference):
            if left == right { return .empty(of: left) }
            guard graph[left].children == [right], case .apply(.select) = graph[left].operation else { return nil }
            return .empty(of: right)
        default: return nil
        }
    }
}
