import Relational

/// What every run of one optimized graph starts from and does not depend on run state:
/// computed once by `QueryEngine.prepare` (or by a runner built without one), so a prepared
/// run does not walk the graph for it again. Runtime copies add nodes past `nodeCount`;
/// the runner never kills a node, so the original nodes stay as listed here.
///
/// A class: every run hands it to its runner, and a structure of eight lists was copied
/// (each list retained and released) twice a run.
final class RunTemplate {
    /// Nodes in the optimized graph (copies made while running come after).
    let nodeCount: Int
    /// Live nodes of the optimized graph, in id order.
    let liveNodes: [NodeID]
    /// The optimized graph's topological order (parents first), as `nodesAdded` gets it.
    let order: [NodeID]
    /// Source nodes in declaration order: the first undrained-source list.
    let sources: [NodeID]
    /// Per node, the label `RunCounters.perNode` reports.
    let labels: [String]
    /// Per node, what its fresh runtime state is made from.
    let shapes: [NodeRuntime.Shape]
    /// The run's growth budget (`GrowthBudget`); it depends on the heuristics' settings and
    /// the live node count only.
    let growthLimit: Int
    /// Each heuristic's name in hook reports.
    let heuristicNames: [String]

    init(graph: PlanGraph, heuristics: [any Heuristic]) {
        nodeCount = graph.nodes.count
        let liveNodes = graph.liveNodeIDs
        self.liveNodes = liveNodes
        order = graph.topologicalOrder()
        sources = graph.nodes.indices.filter { graph[$0].operation.isSource }
        labels = graph.nodes.map(Self.label)
        shapes = graph.nodes.map(NodeRuntime.Shape.init)
        let live = liveNodes.count
        growthLimit = heuristics.compactMap { $0.growthBudget(forNodes: live) }.min()
            ?? GrowthBudget.defaultLimit(forNodes: live)
        heuristicNames = heuristics.map(HookTimer.name(of:))
    }

    static func label(_ node: PlanNode) -> String { node.name ?? node.operation.label }
}
