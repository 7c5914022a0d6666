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
    /// meets its own projection, and only that). So are `x join (x select p)` and `x
    /// intersect (x select p)`: they are `x select p` (`p` may be a chain of selects). The
    /// forty-seventh session left these two out: three corpus cases then read 51–87 rows
    /// where they had read 0–2, each a chain of selects the fold left under a select, whose
    /// inner predicates never reached the shared source. `SelectFolding`, the heuristic's
    /// next pass, makes such a chain one select.
    static func folded(_ node: PlanNode, in graph: PlanGraph) -> Folded? {
        guard node.isLive, node.outputs.isEmpty, !node.parents.isEmpty, node.children.count == 2 else { return nil }
        let (left, right) = (node.children[0], node.children[1])
        func isProject(_ id: NodeID, over other: NodeID) -> Bool {
            guard graph[id].children == [other], case .apply(.project) = graph[id].operation else { return false }
            return true
        }
        // A select straight over `other`, or over a chain of selects down to it.
        func isSelect(_ id: NodeID, over other: NodeID) -> Bool {
            var node = id
            for _ in 0..<64 {
                guard graph[node].children.count == 1, case .apply(.select) = graph[node].operation else { return false }
                node = graph[node].children[0]
                if node == other { return true }
            }
            return false
        }
        switch node.operation {
        case .apply(.intersection):
            if left == right { return .operand(left) }
            if isSelect(right, over: left) { return .operand(right) }
            return isSelect(left, over: right) ? .operand(left) : nil
        case let .apply(.join(pairs)) where pairs.allSatisfy({ $0.left == $0.right }):
            if left == right || isProject(right, over: left) { return .operand(left) }
            if isSelect(right, over: left) { return .operand(right) }
            if isSelect(left, over: right) { return .operand(left) }
            return isProject(left, over: right) ? .operand(right) : nil
        case .apply(.difference):
            if left == right { return .empty(of: left) }
            return isSelect(left, over: right) ? .empty(of: right) : nil
        default: return nil
        }
    }
}
