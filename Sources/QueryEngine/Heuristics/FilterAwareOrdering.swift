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

    /// Called before every drain, so it stays cheap on small graphs (the seed's query runs in
    /// tens of µs): the cheap checks come first, sizes (memoized estimates) only for pairs
    /// still open, and the sources under each side only when the producing side is the
    /// smaller one, as bit sets over node ids rather than hashed sets.
    public func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> Set<NodeID> {
        guard candidates.count > 1 else { return [] }
        var walk = Walk(nodes: run.graph.nodes, candidates: candidates)
        var deferred = NodeBits(count: walk.nodes.count)
        for id in walk.nodes.indices {
            guard case let .apply(op) = walk.nodes[id].operation else { continue }
            for (producing, waiting) in Self.filterPairs(op) {
                let waitingChild = walk.nodes[id].children[waiting]
                let producingChild = walk.nodes[id].children[producing]
                guard !run.hasStarted(waitingChild), !run.isComplete(waitingChild),
                    !run.isComplete(producingChild), !run.hasProvided(along: Edge(parent: id, operand: waiting)),
                    walk.size(producingChild, run) < walk.size(waitingChild, run)
                else { continue }
                let waitingSources = walk.sources(under: waitingChild)
                let producingSources = walk.sources(under: producingChild)
                guard !producingSources.isSubset(of: waitingSources) else { continue }
                deferred.formUnion(waitingSources, minus: producingSources)
            }
        }
        return deferred.isEmpty ? [] : Set(candidates.filter(deferred.contains))
    }

    /// One call's memo of sizes and of the undrained sources under nodes.
    private struct Walk {
        let nodes: [PlanNode]
        var undrained: NodeBits
        var sizes: [Int?]
        var sourcesUnder: [NodeBits?]

        init(nodes: [PlanNode], candidates: [NodeID]) {
            self.nodes = nodes
            undrained = NodeBits(count: nodes.count)
            for id in candidates { undrained.insert(id) }
            sizes = Array(repeating: nil, count: nodes.count)
            sourcesUnder = Array(repeating: nil, count: nodes.count)
        }

        mutating func size(_ node: NodeID, _ run: any RunnerContext) -> Int {
            if let known = sizes[node] { return known }
            let found = FilterAwareOrdering.size(of: node, nodes: nodes, run: run) { size($0, run) }
            sizes[node] = found
            return found
        }

        mutating func sources(under node: NodeID) -> NodeBits {
            if let known = sourcesUnder[node] { return known }
            var found = NodeBits(count: nodes.count)
            var seen = NodeBits(count: nodes.count)
            seen.insert(node)
            var pending = [node]
            while let id = pending.popLast() {
                if undrained.contains(id) { found.insert(id) }
                for child in nodes[id].children where !seen.contains(child) {
                    seen.insert(child)
                    pending.append(child)
                }
            }
            sourcesUnder[node] = found
            return found
        }
    }

    /// A set of node ids as bits.
    private struct NodeBits {
        private var words: [UInt64]

        init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

        func contains(_ id: NodeID) -> Bool { words[id >> 6] & (1 << UInt64(id & 63)) != 0 }
        mutating func insert(_ id: NodeID) { words[id >> 6] |= 1 << UInt64(id & 63) }
        var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

        func isSubset(of other: NodeBits) -> Bool {
            zip(words, other.words).allSatisfy { $0 & ~$1 == 0 }
        }

        /// Adds the members of `a` that are not in `b`.
        mutating func formUnion(_ a: NodeBits, minus b: NodeBits) {
            for i in words.indices { words[i] |= a.words[i] & ~b.words[i] }
        }
    }

    /// A rough size for what a node will deliver, from its sources' current estimates (no
    /// estimate counts as largest): a union adds its operands, a join or an intersection is
    /// as small as its smaller operand (which will filter the other), a difference as its
    /// left operand, and the other operators as their operand.
    static func size(of node: NodeID, nodes: [PlanNode], run: any RunnerContext, operand: (NodeID) -> Int) -> Int {
        let children = nodes[node].children
        switch nodes[node].operation {
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
