import Relational

/// `filter-aware-ordering`: do not drain a source whose rows would start a node that can
/// still be given a filter, while the sources that would produce that filter are undrained.
///
/// A join (or intersection, or a difference's right side) turns one complete operand into
/// a key filter on the other, but only while the other has not started. Smallest-estimate
/// ordering looks at single sources, so a tiny source under the big side (a one-row literal
/// united with a 20,000-row table) is drained first; its row starts the big side, and the
/// filter the small side would have produced can no longer reach the big table, which is
/// then read in full. This heuristic defers every undrained source under the waiting side
/// of such a node (those not also under the producing side) when the producing side looks
/// smaller (`size(of:)`: a join is as small as its smaller operand, a union the sum of its
/// operands, from the sources' current estimates); the initiator ordering then picks among
/// the rest. If everything is deferred, nothing is.
public final class FilterAwareOrdering: Heuristic {
    public static let awareness = FlagKey<Bool>("filter-aware-ordering")

    public static let flags = [
        FlagSpec(
            name: awareness.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "defer sources under the larger side of a join, intersection or difference not yet started, until the smaller side that can filter it is drained",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> FilterAwareOrdering? {
        flags.isOn(awareness) ? FilterAwareOrdering() : nil
    }

    /// What depends only on the graph's shape, kept for the run: asked before every drain,
    /// it would otherwise walk every subtree again each time. The graph only grows (subtree
    /// copies add nodes and rewire one edge), so a changed node count means a changed shape.
    private var shapeNodeCount = -1
    /// (node, producing operand, waiting operand) for every live node with such a pair.
    private var pairs: [(node: NodeID, producing: Int, waiting: Int)] = []
    /// Every source node below a node (drained or not), each once.
    private var sourcesBelow: [NodeID: [NodeID]] = [:]

    public func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> Set<NodeID> {
        guard candidates.count > 1 else { return [] }
        let graph = run.graph
        if graph.nodes.count != shapeNodeCount { learnShape(graph) }
        let undrained = Set(candidates)
        func sources(under node: NodeID) -> [NodeID] {
            if let known = sourcesBelow[node] { return known.filter(undrained.contains) }
            let all = graph.subtree(of: node).filter { graph[$0].operation.isSource }
            sourcesBelow[node] = all
            return all.filter(undrained.contains)
        }
        var sizes: [NodeID: Int] = [:]
        func size(_ node: NodeID) -> Int {
            if let known = sizes[node] { return known }
            let found = Self.size(of: node, run: run, operand: size)
            sizes[node] = found
            return found
        }
        var deferred = Set<NodeID>()
        for (id, producing, waiting) in pairs {
            let waitingEdge = Edge(parent: id, operand: waiting)
            let waitingChild = graph.child(at: waitingEdge)
            let producingChild = graph.child(at: Edge(parent: id, operand: producing))
            guard !run.hasProvided(along: waitingEdge), !run.hasStarted(waitingChild),
                !run.isComplete(waitingChild), !run.isComplete(producingChild)
            else { continue }
            let waitingSources = sources(under: waitingChild)
            let producingSources = sources(under: producingChild)
            let waitingOnly = waitingSources.filter { !producingSources.contains($0) }
            guard !waitingOnly.isEmpty, producingSources.contains(where: { !waitingSources.contains($0) }) else { continue }
            if size(producingChild) < size(waitingChild) { deferred.formUnion(waitingOnly) }
        }
        return deferred
    }

    private func learnShape(_ graph: PlanGraph) {
        shapeNodeCount = graph.nodes.count
        sourcesBelow = [:]
        pairs = []
        for id in graph.liveNodeIDs {
            guard case let .apply(op) = graph[id].operation else { continue }
            for (producing, waiting) in Self.filterPairs(op) { pairs.append((id, producing, waiting)) }
        }
    }

    /// A rough size for what a node will deliver, from its sources' current estimates (no
    /// estimate counts as largest): a union adds its operands, a join or an intersection is
    /// as small as its smaller operand (which will filter the other), a difference as its
    /// left operand, and the other operators as their operand.
    static func size(of node: NodeID, run: any RunnerContext, operand: (NodeID) -> Int) -> Int {
        let graph = run.graph
        let children = graph[node].children
        switch graph[node].operation {
        case .source: return run.estimate(node) ?? Int.max
        case .dead: return 0
        case let .apply(op):
            switch op {
            case .union:
                return children.reduce(0) { sum, child in
                    let (added, overflow) = sum.addingReportingOverflow(operand(child))
                    return overflow ? Int.max : added
                }
            case .join, .intersection: return children.map(operand).min() ?? 0
            case .difference, .select, .project, .rename, .closure: return children.first.map(operand) ?? 0
            }
        }
    }

    /// (producing operand, waiting operand) pairs: where a complete operand can become a
    /// filter on another operand that has not started.
    static func filterPairs(_ op: Operator) -> [(Int, Int)] {
        switch op {
        case .join, .intersection: return [(0, 1), (1, 0)]
        case .difference: return [(0, 1)]
        case .union, .select, .project, .rename, .closure: return []
        }
    }
}
