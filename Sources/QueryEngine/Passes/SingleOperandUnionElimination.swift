/// Removes unions whose operands are all one node (`x union x`, or a one-operand union):
/// their parents point straight at that node. Unions feeding an output stay.
public struct SingleOperandUnionElimination: OptimizerPass {
    public let name = "single-operand-union-elimination"

    public init() {}

    public func run(_ graph: inout PlanGraph) -> Int {
        var changes = 0
        for id in graph.liveNodeIDs {
            let node = graph[id]
            guard node.operation.isUnion, node.outputs.isEmpty,
                let only = node.children.first, node.children.allSatisfy({ $0 == only })
            else { continue }
            graph.redirectParents(of: id, to: only)
            graph.setChildren(of: id, to: [])
            changes += 1
        }
        return changes
    }
}
