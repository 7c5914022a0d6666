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

    /// The last run's per-node and per-source counts, kept for the next run of the same
    /// prepared query (runs of one prepared query come one after another).
    let lastCounts = LastCounts()
}

/// A run's `RunCounters.perNode` and `rowsReadBySource`, with what they were made from:
/// per live node, the node of the optimized graph it is or copies (which fixes its label
/// and source) and its rows in and out.
final class LastCounts {
    private(set) var perNode: [NodeCounters] = []
    private(set) var rowsReadBySource: [ObjectIdentifier: Int] = [:]
    private var made: [(node: NodeID, original: NodeID, rowsIn: Int, rowsOut: Int)] = []
    private var recorded = false

    /// Whether `run`'s live nodes are those recorded, each the same original with the same
    /// rows in and out (so the lists would come out equal).
    /// The live nodes are walked in place (`Runner.forEachLiveNode`) without making their list.
    func matchesLiveNodes(of run: Runner) -> Bool {
        guard recorded else { return false }
        var i = 0
        let all = run.forEachLiveNode { id in
            guard i < made.count else { return false }
            let entry = made[i]
            i += 1
            return entry.node == id && entry.rowsIn == run.runtimes[id].rowsIn && entry.rowsOut == run.runtimes[id].rowsOut
                && entry.original == run.templateOriginal(of: id)
        }
        return all && i == made.count
    }

    func record(_ live: [NodeID], _ run: Runner) {
        perNode = run.counters.perNode
        rowsReadBySource = run.counters.rowsReadBySource
        made.removeAll(keepingCapacity: true)
        for id in live {
            made.append((id, run.templateOriginal(of: id), run.runtimes[id].rowsIn, run.runtimes[id].rowsOut))
        }
        recorded = true
    }
}
