/// Marks dead every node that no longer has parents or outputs, recursively.
public struct OrphanCollection: OptimizerPass {
    public let name = "orphan-collection"

    public init() {}

    public func run(_ graph: inout PlanGraph) -> Int {
        Self.collect(from: graph.liveNodeIDs, in: &graph)
    }

    /// Marks dead those of `ids` that have no parents or outputs, and so on down their
    /// children; returns how many.
    @discardableResult
    static func collect(from ids: [NodeID], in graph: inout PlanGraph) -> Int {
        var changes = 0
        var pending = ids
        while let id = pending.popLast() {
            let node = graph[id]
            guard node.isLive, node.parents.isEmpty, node.outputs.isEmpty else { continue }
            let children = node.children
            graph.kill(id)
            changes += 1
            pending.append(contentsOf: children)
        }
        return changes
    }
}
