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

    /// The graph's (node, producing operand, waiting operand) pairs, from `nodesAdded`.
    private var pairs: [Pair] = []
    /// Per node, every source under it (undrained or not), bits over node ids; computed when
    /// first asked after nodes were added (a copy changes its parent's children).
    private var sourcesUnder: [NodeBits?] = []
    /// Scratch reused by every call, so the common path allocates nothing: this call's
    /// candidates as bits, and sizes memoized for this call (`sizeCall[node] == call`).
    private var isCandidate = NodeBits(count: 0)
    private var sizes: [Int] = []
    private var sizeCall: [Int] = []
    private var call = 0

    private struct Pair {
        let node: NodeID
        let producing: Int
        let waiting: Int
    }

    public func nodesAdded(_ nodes: [NodeID], run: any RunnerContext) {
        let graph = run.graph
        for id in nodes {
            guard case let .apply(op) = graph[id].operation else { continue }
            for (producing, waiting) in Self.filterPairs(op) {
                pairs.append(Pair(node: id, producing: producing, waiting: waiting))
            }
        }
        sourcesUnder = Array(repeating: nil, count: graph.nodes.count)
    }

    /// Called before every drain, so it stays cheap (the seed's query runs in tens of µs):
    /// per pair the runner's flags come first, then the cached sources under each side, and
    /// sizes (estimates) only for a pair that would defer a source not already deferred.
    public func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> Set<NodeID> {
        guard candidates.count > 1, !pairs.isEmpty else { return [] }
        let nodes = run.graph.nodes
        beginCall(nodes.count, candidates)
        var deferred: Set<NodeID> = []
        for pair in pairs {
            let children = nodes[pair.node].children
            let waitingChild = children[pair.waiting], producingChild = children[pair.producing]
            guard !run.hasStarted(waitingChild), !run.isComplete(waitingChild), !run.isComplete(producingChild),
                !run.hasProvided(along: Edge(parent: pair.node, operand: pair.waiting))
            else { continue }
            let waitingSources = sources(under: waitingChild, nodes)
            let producingSources = sources(under: producingChild, nodes)
            // The producing side must have an undrained source of its own, and the waiting
            // side one that is not deferred yet.
            guard producingSources.intersects(isCandidate, minus: waitingSources),
                let newlyDeferred = waitingSources.members(in: isCandidate, minus: producingSources, notIn: deferred),
                size(producingChild, nodes, run) < size(waitingChild, nodes, run)
            else { continue }
            deferred.formUnion(newlyDeferred)
        }
        return deferred
    }

    private func beginCall(_ count: Int, _ candidates: [NodeID]) {
        call += 1
        if sizes.count < count {
            sizes = Array(repeating: 0, count: count)
            sizeCall = Array(repeating: 0, count: count)
        }
        if sourcesUnder.count < count { sourcesUnder += repeatElement(nil, count: count - sourcesUnder.count) }
        isCandidate.reset(count: count)
        for id in candidates { isCandidate.insert(id) }
    }

    private func size(_ node: NodeID, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int {
        if sizeCall[node] == call { return sizes[node] }
        let found = Self.size(of: node, nodes: nodes, run: run) { size($0, nodes, run) }
        sizes[node] = found
        sizeCall[node] = call
        return found
    }

    private func sources(under node: NodeID, _ nodes: [PlanNode]) -> NodeBits {
        if let known = sourcesUnder[node] { return known }
        var found = NodeBits(count: nodes.count)
        var seen = NodeBits(count: nodes.count)
        seen.insert(node)
        var pending = [node]
        while let id = pending.popLast() {
            if case .source = nodes[id].operation { found.insert(id) }
            for child in nodes[id].children where !seen.contains(child) {
                seen.insert(child)
                pending.append(child)
            }
        }
        sourcesUnder[node] = found
        return found
    }

    /// A set of node ids as bits.
    private struct NodeBits {
        private var words: [UInt64]

        init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

        func contains(_ id: NodeID) -> Bool { id >> 6 < words.count && words[id >> 6] & (1 << UInt64(id & 63)) != 0 }
        mutating func insert(_ id: NodeID) { words[id >> 6] |= 1 << UInt64(id & 63) }

        /// Empties the set and makes room for ids below `count`, reusing its storage.
        mutating func reset(count: Int) {
            let needed = (count + 63) / 64
            if words.count < needed { words = Array(repeating: 0, count: needed) }
            for i in words.indices { words[i] = 0 }
        }

        /// Whether some member is in `a` and not in `b`.
        func intersects(_ a: NodeBits, minus b: NodeBits) -> Bool {
            for i in words.indices where words[i] & a.word(i) & ~b.word(i) != 0 { return true }
            return false
        }

        /// The members in `a`, not in `b` and not in `deferred`; nil when there are none.
        func members(in a: NodeBits, minus b: NodeBits, notIn deferred: Set<NodeID>) -> [NodeID]? {
            var found: [NodeID] = []
            for i in words.indices {
                var bits = words[i] & a.word(i) & ~b.word(i)
                while bits != 0 {
                    found.append((i << 6) + bits.trailingZeroBitCount)
                    bits &= bits - 1
                }
            }
            return found.contains(where: { !deferred.contains($0) }) ? found : nil
        }

        private func word(_ i: Int) -> UInt64 { i < words.count ? words[i] : 0 }
    }

    /// A rough size for what a node will deliver, from its sources' current estimates (no
    /// estimate counts as largest): a union adds its operands, a join or an intersection is
    /// as small as its smaller operand (which will filter the other), a difference as its
    /// left operand, and the other operators as their operand.
    static func size(of node: NodeID, nodes: [PlanNode], run: any RunnerContext, operand: (NodeID) -> Int) -> Int {
        let children = nodes[node].children
        switch nodes[node].operation {
        case .source: return run.estimate(node).map { guessed($0, source: node, nodes: nodes, run: run) } ?? Int.max
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

    /// A source whose active filter its estimate cannot see (no index answers it, so the
    /// estimate is the whole table) is guessed at a third of it, System R's selectivity for a
    /// predicate it cannot estimate. The hunt (issue 15): `t1 select (e >= "x,y") join t0`
    /// over unindexed tables of 4 and 3 rows; taken at 4 rows the select's side looked larger,
    /// `t0` was drained first and the empty select's filter came too late (3 rows against 0).
    static func guessed(_ estimate: Int, source node: NodeID, nodes: [PlanNode], run: any RunnerContext) -> Int {
        guard estimate > 0, let whole = nodes[node].approximateCount, estimate >= whole else { return estimate }
        let state = run.filterState(of: node)
        guard state.isActive, let filter = state.filter, filter != .true else { return estimate }
        return estimate / 3 + (estimate % 3 == 0 ? 0 : 1)
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
