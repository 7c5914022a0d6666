/// Folds a union into its parents when every parent is a union: the parents take its
/// operands directly, saving a layer of de-duplication. Like the seed, only within limits
/// (at most `maxOperands` operands on the node and on each parent, at most `maxParents`
/// parents) so the pass stays cheap. The folded node is left orphaned for collection.
public struct NestedUnionFolding: OptimizerPass {
    public let name = "nested-union-folding"
    public let maxOperands: Int
    public let maxParents: Int

    public init(maxOperands: Int, maxParents: Int) {
        self.maxOperands = maxOperands
        self.maxParents = maxParents
    }

    public func run(_ graph: inout PlanGraph) -> Int {
        var changes = 0
        for id in graph.liveNodeIDs where canFold(id, graph) {
            let operands = graph[id].children
            for parent in Set(graph[id].parents.map(\.parent)).sorted() {
                let kept = graph[parent].children.filter { $0 != id }
                graph.setChildren(of: parent, to: kept + operands)
            }
            graph.setChildren(of: id, to: [])
            changes += 1
        }
        return changes
    }

    private func canFold(_ id: NodeID, _ graph: PlanGraph) -> Bool {
        let node = graph[id]
        guard node.operation.isUnion, node.outputs.isEmpty,
            (1...maxOperands).contains(node.children.count),
            (1...maxParents).contains(node.parents.count)
        else { return false }
        return node.parents.allSatisfy { edge in
            graph[edge.parent].operation.isUnion && graph[edge.parent].children.count <= maxOperands
        }
    }
}
