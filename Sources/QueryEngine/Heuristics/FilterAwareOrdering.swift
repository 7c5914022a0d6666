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
/// smaller (`size`: a join is as small as its smaller operand, a union the sum of its
/// operands, from the sources' current estimates) and must drain no source larger than the
/// waiting side (`hasLargerSource`); the initiator ordering then picks among
/// the rest. If everything is deferred, nothing is. On a tie of the two sizes, the side
/// whose sources hold at least twice the rows a filter can save waits (`candidateRows`),
/// when that filter would narrow every read of it (`filterNarrowsEveryReader`);
/// a side of sources that feed an output (read whole in any order) is never deferred for
/// its filter, and produces first when that starts no other pair's waiting side.
public final class FilterAwareOrdering: Heuristic {
    public static let awareness = FlagKey<Bool>("filter-aware-ordering")

    public static let flags = [
        FlagSpec(
            name: awareness.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "defer sources under the larger side of a join, intersection or difference not yet started, until the smaller side that can filter it is drained",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> FilterAwareOrdering? {
        flags.isOn(awareness) ? FilterAwareOrdering(state: State()) : nil
    }

    /// The instance for the next run of a prepared query, sharing this one's state object:
    /// the runs of a prepared query come one after another, and each run resets what it uses
    /// when it starts (its first `nodesAdded`), so the buffers are allocated once and the
    /// original graph's pairs found once per prepared query. Asked of the prepared instance
    /// before every run but the first; the instance it gives is made once and handed out
    /// again, emptied of the last run's answers (`startNextRun`), instead of one instance
    /// (and its two sample memos) made and freed per run.
    public func instanceForRun() -> (any Heuristic)? {
        if let next = runInstance {
            next.startNextRun()
            return next
        }
        let next = FilterAwareOrdering(state: state)
        runInstance = next
        return next
    }

    /// The instance later runs use (see `instanceForRun`); kept by the prepared instance only.
    private var runInstance: FilterAwareOrdering?

    /// Forgets the last run: the sampled answers are one run's (a table may change between
    /// runs), so the next run asks afresh, as a new instance would.
    private func startNextRun() {
        started = false
        samples.removeAll()
        partlyIndexed.removeAll()
    }

    /// Nothing to defer without a node that can filter an operand, or with one source.
    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.mayHaveTwoSources && graph.contains { !Self.filterPairs($0).isEmpty } ? .all : .none
    }

    private init(state: State) { self.state = state }

    private let state: State
    /// A source whose filter no index answers is sized by a sample of its rows
    /// (`SampledEstimates`, one run's; issue 15, thirteenth round) rather than `guessed`,
    /// which remains for sources that cannot be sampled (SQLite, Postgres).
    private let samples = SampledEstimates()
    /// A source whose filter an index answers only in part is sized by the same samples
    /// when they find fewer rows than the index (`PartlyIndexedSamples`, one run's).
    private let partlyIndexed = PartlyIndexedSamples()
    /// A join of a small undrained table is sized by the rows its keys match
    /// (`JoinKeyLookahead`; issue 15, sixteenth round); its answers hold while the two
    /// tables' versions and the filters are the same, so they are kept across runs.
    private let lookahead = JoinKeyLookahead()
    /// Whether this run's first `nodesAdded` (the whole graph) has come.
    private var started = false

    /// What a run works with; see `instanceForRun`.
    private final class State {
        /// The graph's (node, producing operand, waiting operand) pairs, from `nodesAdded`.
        var pairs: [Pair] = []
        /// Whether the graph holds a closure (`filterReachesACandidate`), and whether the
        /// graph a run starts with does.
        var hasClosure = false
        var startHasClosure = false
        /// `filterReachesACandidate`'s walk, reused: its stack, and per node the walk that
        /// last visited it (`reachMark[node] == reachWalk`).
        var reachStack: [NodeID] = []
        var reachMark: [Int] = []
        var reachWalk = 0
        /// The nodes a run started with and their pairs, to reuse in the next run.
        var startNodes: [NodeID] = []
        var startPairs: [Pair] = []
        /// How many nodes the graph had at that start, and the source bits (`sourceBits`,
        /// `known`) filled for that graph before the run's first copy changed it, for the
        /// next run to start from; `bitsAreStart`: the current bits are still that graph's.
        var startCount = -1
        var startBits: [UInt64] = []
        var startKnown: [Bool] = []
        var startStride = 1
        var bitsAreStart = false
        /// Per node, every source under it (undrained or not) as bits over node ids, `words`
        /// words a node in one flat buffer, a node's row `stride` words apart; a node's are
        /// filled (and its row zeroed first) when first asked after nodes were added (a copy
        /// changes its parent's children), `known` marks those filled. The stride grows by
        /// doubling, the buffer as rows are needed, and neither is zeroed whole: resized and
        /// zeroed at every copy, they cost 4,000 outputs `selected_documents join documents`
        /// (a copy each) a quarter of their 11.8 billion instructions, and 20,000 took 212 s.
        var words = 1
        var stride = 1
        var sourceBits: [UInt64] = []
        var known: [Bool] = []
        /// Scratch reused by every call, so the common path allocates nothing: this call's
        /// candidates and the ones it deferred as bits, and sizes memoized for this call
        /// (`sizeCall[node] == call`).
        var candidateBits: [UInt64] = []
        var deferredBits: [UInt64] = []
        var sizes: [Int] = []
        var sizeCall: [Int] = []
        var call = 0
        /// This call's deferrals by the keyless rule (pair node, its waiting side, source),
        /// and the pair rule's choices (pair node, the side it lets produce first); see
        /// `pairRuleOverridesKeyless`.
        var keylessDeferred: [(node: NodeID, waiting: NodeID, source: NodeID)] = []
        var producingFirst: [(node: NodeID, producing: NodeID)] = []
        /// The nodes that have been a pair's producing operand, as bits over node ids
        /// (`producesAbove`'s pre-check, a word at a time; never cleared: a stale mark only
        /// costs the full check).
        var producerBits: [UInt64] = []
        /// `isUnder`'s stack, reused.
        var upStack: [NodeID] = []
        /// `insertKeylessCandidates`' scratch: the sources whose reads its deferral saves.
        var savedBits: [UInt64] = []
    }

    private struct Pair {
        let node: NodeID
        let producing: Int
        let waiting: Int
    }

    public func nodesAdded(_ nodes: [NodeID], run: any RunnerContext) {
        let graph = run.graph
        let count = graph.nodes.count
        if !started {
            started = true
            if nodes == state.startNodes, count == state.startCount {
                state.pairs = state.startPairs
                state.hasClosure = state.startHasClosure
                // The graph a prepared query's run starts with is the one the last run
                // started with: the source bits filled for it hold again.
                if restoreStartBits(count) { return }
            } else {
                state.pairs.removeAll(keepingCapacity: true)
                state.hasClosure = false
                appendPairs(nodes, graph)
                state.startNodes = nodes
                state.startPairs = state.pairs
                state.startHasClosure = state.hasClosure
                state.startCount = count
                state.startBits.removeAll(keepingCapacity: true)
                state.startKnown.removeAll(keepingCapacity: true)
            }
            state.bitsAreStart = true
        } else {
            appendPairs(nodes, graph)
            if state.bitsAreStart { saveStartBits() }
        }
        state.words = (count + 63) / 64
        if state.stride < state.words {
            while state.stride < state.words { state.stride *= 2 }
            // The rows move: what they held is zeroed row by row when filled.
            state.sourceBits.removeAll(keepingCapacity: true)
        }
        let needed = count * state.stride
        if state.sourceBits.count < needed {
            state.sourceBits.append(contentsOf: repeatElement(0, count: needed - state.sourceBits.count))
        }
        if state.known.count == count {
            state.known.withUnsafeMutableBufferPointer { $0.update(repeating: false) }
        } else {
            state.known.removeAll(keepingCapacity: true)
            state.known.append(contentsOf: repeatElement(false, count: count))
        }
    }

    /// The source bits filled so far for the graph the run started with, kept before copies
    /// change it, for the next run to start from: swapped into the spare buffers (whose old
    /// contents, a graph with copies, the caller then overwrites), so nothing is copied.
    private func saveStartBits() {
        state.bitsAreStart = false
        swap(&state.startBits, &state.sourceBits)
        swap(&state.startKnown, &state.known)
        swap(&state.startStride, &state.stride)
    }

    /// Starts a run of the graph the last run started with (`count` nodes) from the source
    /// bits filled for it: those of a run that added no node are still in place; those of
    /// one that did were kept when it first added one (`saveStartBits`). A node's bits
    /// depend only on the graph under it, so they hold; nodes not filled then are filled
    /// when asked, as before. False when there are none to start from.
    private func restoreStartBits(_ count: Int) -> Bool {
        let words = (count + 63) / 64
        if state.bitsAreStart {
            guard state.known.count == count, state.stride >= words, state.sourceBits.count >= count * state.stride,
                state.words == words
            else { return false }
            return true
        }
        guard state.startKnown.count == count, state.startStride >= words, state.startBits.count >= count * state.startStride
        else { return false }
        state.words = words
        state.bitsAreStart = true
        // Swapped back (`saveStartBits`): the spare buffers now hold the last run's bits of
        // its graph with copies, never read again (the next save swaps them out).
        swap(&state.sourceBits, &state.startBits)
        swap(&state.known, &state.startKnown)
        swap(&state.stride, &state.startStride)
        return true
    }

    private func appendPairs(_ nodes: [NodeID], _ graph: PlanGraph) {
        for id in nodes {
            guard case let .apply(op) = graph.nodes[id].operation else { continue }
            if case .closure = op { state.hasClosure = true }
            for (producing, waiting) in Self.filterPairs(op) {
                state.pairs.append(Pair(node: id, producing: producing, waiting: waiting))
                let child = graph.nodes[id].children[producing]
                if state.producerBits.count <= child >> 6 {
                    state.producerBits.append(contentsOf: repeatElement(0, count: (child >> 6) + 1 - state.producerBits.count))
                }
                state.producerBits[child >> 6] |= 1 << UInt64(child & 63)
            }
        }
    }

    /// Called before every drain, so it stays cheap (the seed's query runs in tens of µs):
    /// per pair the runner's flags come first, then the cached sources under each side, and
    /// sizes (estimates) only for a pair that would defer a source not already deferred.
    public func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> [NodeID] {
        guard candidates.count > 1, !state.pairs.isEmpty || state.hasClosure else { return [] }
        let nodes = run.graph.nodes
        guard nodes.count == state.known.count else { return [] }
        beginCall(nodes.count, candidates)
        var deferred: [NodeID] = []
        var finished = 0
        for pair in state.pairs {
            let children = nodes[pair.node].children
            let waitingChild = children[pair.waiting], producingChild = children[pair.producing]
            if run.isComplete(waitingChild) || run.isComplete(producingChild) {
                finished += 1
                continue
            }
            // A filter the waiting edge already has (a select's, pushed at the start) does not
            // stop the pair: the join filter narrows it (`provideFilter` ANDs a second one).
            // Issue 15, eleventh round, seed 21 case 546: `(t0 join [d = e] t1) select (…)`,
            // the select's conjuncts on both edges at the start; `t1` (20 rows, `e > 47`, 9
            // rows) was drained before `t0` (30, guessed at under a row, 1 row): 9 against 1.
            // The waiting side's size is then guessed under that filter too, which its
            // sources may not see yet (seed 19 case 856: a union that feeds an output, its
            // sources' filters never active, given `d in {1, 16}` by the join: counted whole,
            // it deferred the union's 145 rows behind a 283-row table).
            guard !run.hasStarted(waitingChild) || Self.startedButWaiting(waitingChild, run) else { continue }
            fillSources(waitingChild, nodes)
            fillSources(producingChild, nodes)
            // The producing side must have an undrained source, and the waiting side one of
            // its own not deferred yet. The producing side's may be under the waiting side
            // too (a shared node under both): its rows then start the waiting side, but the
            // join filter still narrows what the waiting side has not drained (seed 26 case
            // 410: `shared join (t1 select … minus shared)`, `t1` 65 rows drained before
            // `shared`'s keyed `t0`, 69 rows against 5).
            let ownSources = hasCandidate(under: producingChild, notUnder: waitingChild)
            guard ownSources || hasCandidate(under: producingChild, notUnder: nil),
                hasUndeferredCandidate(under: waitingChild, notUnder: producingChild),
                !state.hasClosure || filterReachesACandidate(under: waitingChild, notUnder: producingChild, nodes, run)
            else { continue }
            // A source that feeds an output is read whole whatever the order: its filter
            // waits on the output, which never gives one. A waiting side of such sources
            // alone has no read a filter could save; a producing side of them alone costs
            // no extra row to drain first, so it produces whatever the sizes (issue 15,
            // fifteenth round, seed 41 case 165: `(t2 join t1 join t0) project [c]` and
            // `t0` (5 rows) an output; `t1`'s 2 rows, a null among them, were drained first
            // and keyed 32 of `t2`'s 274 unindexed rows, 39 rows against 5: `t0`'s keys
            // match nothing of `t1`, whose join then gives `t2` `false`).
            if allCandidatesFeedAnOutput(under: waitingChild, notUnder: producingChild, nodes) { continue }
            if ownSources, allCandidatesFeedAnOutput(under: producingChild, notUnder: waitingChild, nodes),
                !startsAWaitingSide(under: producingChild, notUnder: waitingChild, besides: pair.node, nodes, run) {
                insertCandidates(under: waitingChild, notUnder: producingChild, of: pair.node, into: &deferred, nodes, run)
                continue
            }
            let producingSize = size(producingChild, nodes, run)
            let waitingFilter = run.providedFilter(along: Edge(parent: pair.node, operand: pair.waiting))
            let waitingSize = narrowedSize(waitingChild, by: waitingFilter, nodes, run)
            if ownSources && Self.isDifferencesLeft(pair, nodes) && producingSize < Int.max
                && SelectPushdown.readsAloneATree(waitingChild, run.graph) {
                insertCandidates(under: waitingChild, notUnder: producingChild, of: pair.node,
                                 producing: (producingChild, waitingChild), into: &deferred, nodes, run)
                pairRuleOverridesKeyless(pair.node, producing: producingChild, &deferred)
            } else if producingSize < waitingSize
                || (producingSize == waitingSize && producingSize < Int.max
                    && Self.filterNarrowsEveryReader(of: waitingChild, from: pair.node, run.graph)
                    && candidateRows(under: producingChild, notUnder: ownSources ? waitingChild : nil, nodes, run)
                        <= candidateRows(under: waitingChild, notUnder: producingChild, nodes, run) / 2),
                !hasLargerSource(under: producingChild, notUnder: ownSources ? waitingChild : nil,
                                 than: size(waitingChild, nodes, run), nodes, run) {
                insertCandidates(under: waitingChild, notUnder: producingChild, of: pair.node,
                                 producing: (producingChild, ownSources ? waitingChild : nil),
                                 keepingProducersUpTo: producingSize, into: &deferred, nodes, run)
                pairRuleOverridesKeyless(pair.node, producing: producingChild, &deferred)
            }
            if !state.producingFirst.contains(where: { $0.node == pair.node && $0.producing == waitingChild }) {
                insertKeylessCandidates(under: waitingChild, notUnder: producingChild, of: pair.node,
                                        cheaperThan: producingSize, into: &deferred, nodes, run)
            }
        }
        // Dropped in bulk: the first drop of a run copies the list the run started with.
        if finished >= 16 { dropFinishedPairs(nodes, run) }
        if state.hasClosure { deferLongSearches(candidates, into: &deferred, nodes, run) }
        return deferred
    }

    /// Defers a source a closure searches on demand when the search is sized at least
    /// twice another candidate's (`drainedSize`): its estimate is the search's first fetch,
    /// so the initiator ordering would drain it as if that were all it reads. Held-out seed
    /// 329 case 960 (see `searchesForwards`): the search and `t1 join t0`'s keyed fetch were
    /// both estimated at 2 rows, and the search, listed first, read 927.
    private func deferLongSearches(_ candidates: [NodeID], into deferred: inout [NodeID], _ nodes: [PlanNode],
                                   _ run: any RunnerContext) {
        // The two smallest sizes among the candidates kept: the others' smallest is the
        // second for the smallest one, the first for every other (no list made per pick).
        var smallest: (id: NodeID, size: Int)?
        var second = Int.max
        for id in candidates where !deferred.contains(id) {
            let own = size(id, nodes, run)
            if let known = smallest, known.size <= own {
                second = min(second, own)
            } else {
                second = smallest?.size ?? Int.max
                smallest = (id, own)
            }
        }
        guard let smallest, second < Int.max else { return }
        let before = deferred.count
        for id in candidates where !deferred[..<before].contains(id) {
            let drained = drainedSize(id, nodes, run)
            guard drained > size(id, nodes, run) else { continue }
            let others = id == smallest.id ? second : smallest.size
            if others <= drained / 2 { deferred.append(id) }
        }
    }

    /// Drops for the rest of the run the pairs with a complete side: a complete node stays
    /// at its edge (a copy is never made of a started or complete subtree), so they never
    /// defer again. Kept, every pick walked them all: 4,000 outputs `selected_documents
    /// join documents` spent 4.3 of their 8.8 billion instructions on pairs whose
    /// `selected_documents` side had long completed.
    private func dropFinishedPairs(_ nodes: [PlanNode], _ run: any RunnerContext) {
        state.pairs.removeAll { pair in
            let children = nodes[pair.node].children
            return run.isComplete(children[pair.waiting]) || run.isComplete(children[pair.producing])
        }
    }

    /// Whether the pair's producing side is a difference's left operand. Its rows are read
    /// whole whichever side goes first (a complete right operand filters nothing of them),
    /// and they key the right operand (`set-operand-filter`), so draining its own sources
    /// first never reads more at the difference, whatever the sizes say. Only when nothing
    /// but the difference reads the right operand's tree (`SelectPushdown.readsAloneATree`):
    /// a source shared with another parent may be the one-row initiator whose keys narrow
    /// everything else (seed 72 case 94, `(t3 join t3 minus t0 rename […]) join t0 join
    /// t2`, `t0` one row: deferred, 5 rows against 1; 29/541, 30 → 222). Issue 15, held-out
    /// seed 197 case 1685: `(t0 rename […] minus t0 rename […]) minus t1 closure [c -> e]
    /// select (c == 116)`; `closure-seeding` fetches `t1` on demand, so its estimate is a
    /// first fetch of a few rows, below `t0`'s 98: drained first, the search read 630 rows of
    /// `t1`, where the left's empty result gives the right `false` (728 rows against 98).
    private static func isDifferencesLeft(_ pair: Pair, _ nodes: [PlanNode]) -> Bool {
        guard pair.producing == 0, case .apply(.difference) = nodes[pair.node].operation else { return false }
        return true
    }

    /// The pair rule has chosen `producing` to produce first at `pairNode`; the keyless rule
    /// of the same node's opposite pair, which deferred that side's sources for the other
    /// side to go first, gives way (before this call's pair rule or after it). Together the
    /// two defer both sides of the join, and when that is everything, nothing is deferred:
    /// the initiator ordering's smallest source may then start the side the pair rule kept
    /// waiting. Issue 15, the case the seventeenth session left open, seed 80 case 1864:
    /// `shared select (b == "a") join (shared join t0)`, `shared = t1 join t0 union t2
    /// rename […]`, the select's side a
    /// copy whose `t1` (under a product with `t0`) is keyed to one row. The tie rule let the
    /// select's side produce, the keyless rule deferred its product's `t1` and `t0` behind the
    /// other side; everything deferred, the one-row `t0` went first, started the other side,
    /// and its `t1` (67 rows) was read whole (71 rows against 5).
    private func pairRuleOverridesKeyless(_ pairNode: NodeID, producing: NodeID, _ deferred: inout [NodeID]) {
        state.producingFirst.append((pairNode, producing))
        guard !state.keylessDeferred.isEmpty else { return }
        for entry in state.keylessDeferred where entry.node == pairNode && entry.waiting == producing {
            state.deferredBits[entry.source >> 6] &= ~(1 << UInt64(entry.source & 63))
            deferred.removeAll { $0 == entry.source }
        }
        state.keylessDeferred.removeAll { $0.node == pairNode && $0.waiting == producing }
    }

    /// Whether draining the candidates under `node` and not under `other` would start the
    /// waiting side of another node's pair (not `pairNode`'s own, the trade being weighed)
    /// whose producing side still has a source to drain: that side's filter is then lost,
    /// so draining them first is not free after all (seed 47 case 1721: `t1 intersect t0
    /// intersect t2 rename […]`, `t1` an output; drained first, its 142 keys started the
    /// inner intersection, which `t2`'s could no longer narrow: 290 rows against 149).
    private func startsAWaitingSide(under node: NodeID, notUnder other: NodeID, besides pairNode: NodeID,
                                    _ nodes: [PlanNode], _ run: any RunnerContext) -> Bool {
        for pair in state.pairs where pair.node != pairNode {
            let children = nodes[pair.node].children
            let waitingChild = children[pair.waiting], producingChild = children[pair.producing]
            guard !run.hasStarted(waitingChild), !run.isComplete(producingChild) else { continue }
            fillSources(waitingChild, nodes)
            fillSources(producingChild, nodes)
            guard hasCandidate(under: producingChild, notUnder: waitingChild) else { continue }
            for w in 0..<state.words
            where candidateWord(w, under: node, notUnder: other) & state.sourceBits[waitingChild * state.stride + w] != 0 {
                return true
            }
        }
        return false
    }

    /// Whether every candidate under `node` and not under `other` (one at least) feeds an
    /// output itself.
    private func allCandidatesFeedAnOutput(under node: NodeID, notUnder other: NodeID, _ nodes: [PlanNode]) -> Bool {
        var any = false
        for w in 0..<state.words {
            var bits = candidateWord(w, under: node, notUnder: other)
            while bits != 0 {
                let id = (w << 6) + bits.trailingZeroBitCount
                bits &= bits - 1
                if nodes[id].outputs.isEmpty { return false }
                any = true
            }
        }
        return any
    }

    /// What the undrained sources under `node` and not under `other` deliver drained as
    /// they are, added, but for those that feed an output (read whole in any order): on a
    /// tie of what the two sides of a pair deliver, the side whose sources hold at least
    /// twice the rows is the one a key filter can save reading, so the other side produces
    /// it (a near tie of rows is left to the initiator ordering: seed 47 case 1721, `t1
    /// intersect t0 intersect t2 rename […]`, 142, 144 and 142 rows, `t1` an output; counted
    /// whole, `t1` and `t0` outweighed `t2`, which was drained first and read whole, 290 rows
    /// against 149). Issue 15, fifteenth round, seed 32 case 1146: `t1 join [d = c] t2 join
    /// t0`, `t1` and `t0` one row each, `t2` 282 rows unindexed. Both sides of the outer join
    /// deliver a row at most; in declaration order `t1` was drained first, started the inner
    /// join (so `t0`'s key could no longer narrow it), and its null key matched 27 rows of
    /// `t2` (29 rows read). Draining `t0` first costs its one row, and its key empties `t1`,
    /// whose join then gives `t2` `false` (1 row).
    /// With `countingOutputs`, sources that feed an output count too.
    private func candidateRows(under node: NodeID, notUnder other: NodeID?, countingOutputs: Bool = false,
                               _ nodes: [PlanNode], _ run: any RunnerContext) -> Int {
        summedSizes(words: state.words, { self.candidateWord($0, under: node, notUnder: other) },
                    counting: { countingOutputs || nodes[$0].outputs.isEmpty }, nodes, run)
    }

    /// Whether a filter that `pairNode` gives `node` narrows every read of `node`: `node`
    /// feeds no output, and each of its other parents has `pairNode` under it (an
    /// intersection or join with the pair's result, which that result narrows in turn).
    /// Otherwise subtree copying gives the filter a copy while the original is still read
    /// for another parent, so `node`'s sources are read twice; on a tie of the two sides'
    /// sizes the filter saves no delivered row, and the copy's reads are all the deferral
    /// does. The incremental change mode's selection change (`ChangeCostTests`): the
    /// fifteenth round's tie rule deferred `selected_documents join documents`, read also by
    /// another rule of the derivative graph, behind an equally small keyed `documents`: 11
    /// rows against 8. Seed 31 case 749 keeps the rule: `shared = t2 join t0` is also under
    /// `shared join t1 intersect shared`, so `t1`'s two keys, which match nothing of `t2`,
    /// empty both (2 rows against 9).
    private static func filterNarrowsEveryReader(of node: NodeID, from pairNode: NodeID, _ graph: PlanGraph) -> Bool {
        guard graph[node].outputs.isEmpty else { return false }
        return graph[node].parents.allSatisfy { $0.parent == pairNode || graph.subtree(of: $0.parent).contains(pairNode) }
    }

    /// `size(node)` under `filter`, a filter given to the node, guessed with System R's
    /// selectivities (`narrowed`), but for the operands of a join below that the filter
    /// cannot reach (a join passes a filter on only to an operand holding all its
    /// attributes), and for sources it has already reached (`alreadySees`): those keep
    /// their whole size. A join is as small as its
    /// smaller operand, and when that is one the filter never reaches, narrowing the join's
    /// size by the filter made the side look smaller than it can be. Issue 15, sixteenth
    /// session, seed 83 case 422: `((shared intersect shared_2 minus shared_2) join t2)
    /// select (e > a)`, `shared = t0 join [b = d] t1`, `t1` and `t2` one row each, `t0` 299
    /// rows unindexed. `select-pushdown` gave the join's left side `e > a` at the start; sized
    /// under it, that side (as small as `t1`, which has neither `e` nor `a`) looked a third of
    /// `t2`, so nothing was deferred and `t1` went first: its null key took 24 rows of `t0` (26
    /// read). Sized as the tie it is, the tie rule drains `t2` first, whose key empties `t1`,
    /// and `t0` gets `false` (1 row, as without `select-pushdown`).
    private func narrowedSize(_ node: NodeID, by filter: Predicate?, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int {
        var budget = 64
        return narrowedWalk(node, filter, nodes, run, &budget).size
    }

    /// `narrowedSize`'s walk: the size, and whether the filter missed a join operand below
    /// (when it missed none, the size is `narrowed(size(node), by: filter)`, as before that
    /// case). `budget` bounds the walk on a DAG shared along many paths.
    private func narrowedWalk(_ node: NodeID, _ filter: Predicate?, _ nodes: [PlanNode], _ run: any RunnerContext,
                              _ budget: inout Int) -> (size: Int, missed: Bool) {
        let whole = size(node, nodes, run)
        // Nothing narrows below nothing (a select its source's ranges rule out, say).
        guard let filter, whole > 0 else { return (whole, true) }
        let plain = narrowed(whole, by: filter)
        budget -= 1
        let kind: Fold
        switch nodes[node].operation {
        case .apply(.union): kind = .sum
        case .apply(.join), .apply(.intersection): kind = .smallest
        case .apply(.difference), .apply(.select), .apply(.project), .apply(.rename): kind = .first
        case .source:
            // Already sized under it: its estimate is the active filter's, so narrowing it
            // again would count the filter twice.
            return Self.alreadySees(filter, node, run) ? (whole, true) : (plain, false)
        case .apply(.closure), .dead: return (plain, false)
        }
        guard budget > 0, whole < Int.max else { return (plain, false) }
        var missed = false
        let folded = fold(kind, node, nodes, run, scale: { self.narrowed($0, by: filter) }) { operand in
            let derived = run.derivedFilter(filter, along: Edge(parent: node, operand: operand))
            let part = narrowedWalk(nodes[node].children[operand], derived, nodes, run, &budget)
            missed = missed || part.missed
            return part.size
        }
        return missed ? (folded, true) : (plain, false)
    }

    /// Whether the node's active filter implies `filter` (is it, or has it among its
    /// conjuncts), so the node's estimate already sees it. Issue 15, held-out seed 130 case
    /// 1720: `(t2 project [a, e] closure [a -> e] intersect t3 rename [c -> a, d -> e]) join
    /// t1 join t0`, `t0` and `t1` one row each, `t3` two rows indexed on `c`, `t2` 18
    /// unindexed. Once `t0` was drained its key `a == 22` reached `t3` as `c == 22` (one row
    /// by the index), and the intersection was sized at that row narrowed by `a == 22` once
    /// more: a tenth of `t1`'s row, so `t3` went before `t1`, whose `e == 13` would have
    /// emptied it, and `t2` was read whole behind the closure (21 rows; now 2, the best 1).
    private static func alreadySees(_ filter: Predicate, _ node: NodeID, _ run: any RunnerContext) -> Bool {
        let state = run.filterState(of: node)
        guard state.isActive, let active = state.filter else { return false }
        return active.impliesSyntactically(filter)
    }

    /// `size` under `filter` as well, guessed with System R's selectivities.
    private func narrowed(_ size: Int, by filter: Predicate?) -> Int {
        guard let filter, size < Int.max else { return size }
        return Int((Double(size) * Self.guessedSelectivity(filter)).rounded(.up))
    }

    /// Defers the waiting side's candidates whose rows give no other undrained source a key
    /// filter (`keysReachNoOtherSource`), when the producing side is smaller than what the
    /// waiting side's candidates read unfiltered. Such a source's rows buy nothing by coming
    /// first; waiting, it can still be keyed by the producing side, and if that empties it,
    /// the join above it gives its siblings `false`. The pair rule above misses it because a
    /// join's size is its smaller operand's, while a product's operand or a join keyed only
    /// through the source itself filters nothing and reads its other operand whole. Issue
    /// 15, eleventh round: seed 21 case 1503, `t1 join t0 join t2` with `t1 join t0` a
    /// product (76 rows and 1) and `t2` (5 rows) keying `t0`: `t0` was drained first and
    /// `t1` read whole (82 rows against 5); seed 26 case 74, `(t2 join t0) join t0 join t1`,
    /// the first join a product and the second keyed on `t0`'s own attribute (65 against 5).
    /// A source sized at nothing (`size`: its sample of every row matches none) is never
    /// deferred: it costs no row and may empty the join. Seed 49 case 58: a copy of
    /// `t1` under a product, its filter matching none of its 30 rows, was deferred on its
    /// estimate (the whole table), and the original `t1` went first, read whole (30 rows
    /// against 0). What waiting saves is the keyless sources' rows and those their joins'
    /// other operands read once started; when the producing side reads no fewer, nothing
    /// is deferred. Held-out seed 577 case 78 at `--rows 300`: `shared = (t3 join t2 minus t1
    /// rename […]) project [d, e]` under `t0 minus (shared intersect t0 rename […])`; `t3`
    /// and `t2` (a product, three rows) were deferred for `t0`'s 141 rows, weighed against
    /// their side's 299, but `t1`'s 296 among them are keyed by the product (the difference's
    /// left operand filters its right), not read whole by it: `t0` was read whole (141
    /// rows against 3). Counting only the keyless rows (2 and 1) lost seed 21 case 1503
    /// instead, whose saving is the product's other operand.
    private func insertKeylessCandidates(under node: NodeID, notUnder other: NodeID, of pairNode: NodeID,
                                         cheaperThan limit: Int, into deferred: inout [NodeID],
                                         _ nodes: [PlanNode], _ run: any RunnerContext) {
        let unfiltered = candidateRows(under: node, notUnder: other, countingOutputs: true, nodes, run)
        guard limit < unfiltered else { return }
        let before = deferred.count
        for w in 0..<state.words {
            var bits = candidateWord(w, under: node, notUnder: other) & ~state.deferredBits[w]
            while bits != 0 {
                let id = (w << 6) + bits.trailingZeroBitCount
                bits &= bits - 1
                guard size(id, nodes, run) != 0, keysReachNoOtherSource(id, nodes, run) else { continue }
                deferred.append(id)
            }
        }
        guard deferred.count > before else { return }
        // Taken back when what waiting saves, the keyless sources and what their joins' other
        // operands read once started, is no more than the producing side.
        if state.savedBits.count < state.words { state.savedBits = Array(repeating: 0, count: state.words) }
        for w in 0..<state.words { state.savedBits[w] = 0 }
        for id in deferred[before...] {
            state.savedBits[id >> 6] |= 1 << UInt64(id & 63)
            for edge in nodes[id].parents {
                let sibling = nodes[edge.parent].children[1 - edge.operand]
                fillSources(sibling, nodes)
                for w in 0..<state.words { state.savedBits[w] |= candidateWord(w, under: sibling, notUnder: other) }
            }
        }
        guard limit < rows(of: state.savedBits, nodes, run) else {
            deferred.removeLast(deferred.count - before)
            return
        }
        for id in deferred[before...] {
            state.deferredBits[id >> 6] |= 1 << UInt64(id & 63)
            state.keylessDeferred.append((pairNode, node, id))
        }
    }

    /// What the sources in `bits` deliver drained as they are, added.
    private func rows(of bits: [UInt64], _ nodes: [PlanNode], _ run: any RunnerContext) -> Int {
        summedSizes(words: bits.count, { bits[$0] }, counting: { _ in true }, nodes, run)
    }

    /// The sizes of the sources whose bits `word(w)` sets, for `w` below `words`, that
    /// `counting` keeps, added (`Int.max` past overflow).
    private func summedSizes(words: Int, _ word: (Int) -> UInt64, counting: (NodeID) -> Bool,
                             _ nodes: [PlanNode], _ run: any RunnerContext) -> Int {
        var total = 0
        for w in 0..<words {
            var bits = word(w)
            while bits != 0 {
                let id = (w << 6) + bits.trailingZeroBitCount
                bits &= bits - 1
                guard counting(id) else { continue }
                let (sum, overflow) = total.addingReportingOverflow(size(id, nodes, run))
                if overflow { return Int.max }
                total = sum
            }
        }
        return total
    }

    /// Whether every parent of `source` is a join whose other operand holds no undrained
    /// candidate, other than `source`, with one of the join's key attributes on that side (a
    /// product has none), and no rename or closure (through which a key could reach one under another
    /// name), while some candidate there is undrained: the source's rows then filter
    /// nothing below that join and cannot complete it. A join below whose complete operand
    /// holds a key attribute passes the keys on to its other operand (`join-conjunct-pushdown`
    /// binds its filter to that operand's rows, `partBound`), so there the keys do reach a
    /// source. Seventeenth session, seed 52 case 1349: `t1 join (t1 join t0 join t0 join
    /// t3)`, `t0` two rows drained first; `t3`'s keys on `a` reach `t1` only through `t0`'s
    /// rows, and deferred, `t3` let `t1` (149 rows) be read unkeyed (151 rows against 6).
    private func keysReachNoOtherSource(_ source: NodeID, _ nodes: [PlanNode], _ run: any RunnerContext) -> Bool {
        let parents = nodes[source].parents
        guard !parents.isEmpty, nodes[source].outputs.isEmpty else { return false }
        for edge in parents {
            guard case let .apply(.join(pairs)) = nodes[edge.parent].operation, nodes[edge.parent].children.count == 2
            else { return false }
            let sibling = nodes[edge.parent].children[1 - edge.operand]
            // The sibling's side of each key pair (`join [c = b]` keys `c` on the left by `b`),
            // and of each conjunct of the join's filter linking the two sides.
            let keys = pairs.map { edge.operand == 0 ? $0.right : $0.left }
                + Self.linkedAttributes(of: edge, sibling: sibling, nodes, run)
            var undrained = false
            var pending = [sibling]
            var seen: Set<NodeID> = [sibling]
            while let id = pending.popLast() {
                switch nodes[id].operation {
                case .source:
                    guard id != source, isCandidate(id) else { break }
                    undrained = true
                    if nodes[id].scheme.attributes.contains(where: keys.contains) { return false }
                case .apply(.rename), .apply(.closure):
                    if !keys.isEmpty { return false }
                case .apply(.join):
                    if keysPassThroughACompleteOperand(of: id, keys, nodes, run) { return false }
                default: break
                }
                for child in nodes[id].children where seen.insert(child).inserted { pending.append(child) }
            }
            // With the other operand drained, the source's rows complete the join, whose
            // output may then filter others (seed 19 case 562: `t0 join t1` under a join with
            // `t2`, `t1` drained; deferring `t0` let `t2` be read unkeyed, 11 rows against 6).
            if !undrained { return false }
        }
        return true
    }

    /// The sibling's attributes in the equalities among the join's active filter's conjuncts
    /// that link an attribute only the edge's operand has to one only the sibling has:
    /// bound to the operand's rows once it completes (`JoinConjunctPushdown.partBound`),
    /// they key the sibling as a join's keys do. Other links (`c > a` in an OR) filter
    /// little: taken as keys, seed 304 case 724 read 1,961 rows against 1,892. Held-out
    /// seed 606 case 1305 at `--rows 300`: `((t2 join t2) select (…) rename [a -> b, …]
    /// project [b] join t0) select (c == b and e <= 3) join t0`; the copy of `t0` under the
    /// product, one row under `e <= 3`, was deferred as keyless behind the original `t0` (5
    /// rows), though its row binds `c == b` to `b == 59` and empties `t2`'s side, after which
    /// the outer join gives `t0` `false` (6 rows against 1).
    private static func linkedAttributes(of edge: Edge, sibling: NodeID, _ nodes: [PlanNode],
                                         _ run: any RunnerContext) -> [Attribute] {
        let state = run.filterState(of: edge.parent)
        guard state.isActive, let filter = state.filter, !filter.isConstantTrue else { return [] }
        var linked: [Attribute] = []
        appendLinks(in: filter, own: nodes[nodes[edge.parent].children[edge.operand]].scheme,
                    other: nodes[sibling].scheme, to: &linked)
        return linked
    }

    /// `linkedAttributes`' walk over the conjuncts, in place (asked per keyless candidate).
    private static func appendLinks(in filter: Predicate, own: Scheme, other: Scheme, to linked: inout [Attribute]) {
        switch filter {
        case let .and(parts):
            for part in parts { appendLinks(in: part, own: own, other: other, to: &linked) }
        case let .comparison(.attribute(x), .equal, .attribute(y)):
            if own.contains(x), !other.contains(x), other.contains(y), !own.contains(y) { linked.append(y) }
            if own.contains(y), !other.contains(y), other.contains(x), !own.contains(x) { linked.append(x) }
        default:
            break
        }
    }

    /// Whether a join's operand is complete with at most `JoinConjunctPushdown.boundRowLimit`
    /// rows and holds one of `keys`, while its other operand still has a candidate: the very
    /// condition under which `partBound` binds the join's filter (the rows are counted
    /// before any is made).
    private func keysPassThroughACompleteOperand(of join: NodeID, _ keys: [Attribute], _ nodes: [PlanNode],
                                                 _ run: any RunnerContext) -> Bool {
        let children = nodes[join].children
        guard children.count == 2 else { return false }
        for (operand, child) in children.enumerated()
        where run.isComplete(child) && nodes[child].scheme.attributes.contains(where: keys.contains)
            && run.operandRows(of: join, operand: operand, atMost: JoinConjunctPushdown.boundRowLimit) != nil {
            fillSources(children[1 - operand], nodes)
            if hasCandidate(under: children[1 - operand], notUnder: nil) { return true }
        }
        return false
    }

    private func isCandidate(_ id: NodeID) -> Bool {
        id >> 6 < state.candidateBits.count && state.candidateBits[id >> 6] & (1 << UInt64(id & 63)) != 0
    }

    private func beginCall(_ count: Int, _ candidates: [NodeID]) {
        state.call += 1
        if state.sizes.count < count {
            state.sizes = Array(repeating: 0, count: count)
            state.sizeCall = Array(repeating: 0, count: count)
        }
        if state.candidateBits.count < state.words { state.candidateBits = Array(repeating: 0, count: state.words) }
        if state.deferredBits.count < state.words { state.deferredBits = Array(repeating: 0, count: state.words) }
        for w in 0..<state.words {
            state.candidateBits[w] = 0
            state.deferredBits[w] = 0
        }
        for id in candidates where id < count { state.candidateBits[id >> 6] |= 1 << UInt64(id & 63) }
        if !state.keylessDeferred.isEmpty { state.keylessDeferred.removeAll(keepingCapacity: true) }
        if !state.producingFirst.isEmpty { state.producingFirst.removeAll(keepingCapacity: true) }
    }

    /// Fills the source bits of `node` and of everything under it not filled yet.
    private func fillSources(_ node: NodeID, _ nodes: [PlanNode]) {
        if state.known[node] { return }
        state.known[node] = true
        let base = node * state.stride
        for w in 0..<state.words { state.sourceBits[base + w] = 0 }
        if case .source = nodes[node].operation { state.sourceBits[base + (node >> 6)] |= 1 << UInt64(node & 63) }
        for child in nodes[node].children {
            fillSources(child, nodes)
            let from = child * state.stride
            for w in 0..<state.words { state.sourceBits[base + w] |= state.sourceBits[from + w] }
        }
    }

    /// The candidates under `node` and not under `other`, word `w`.
    private func candidateWord(_ w: Int, under node: NodeID, notUnder other: NodeID?) -> UInt64 {
        let under = state.sourceBits[node * state.stride + w] & state.candidateBits[w]
        guard let other else { return under }
        return under & ~state.sourceBits[other * state.stride + w]
    }

    private func hasCandidate(under node: NodeID, notUnder other: NodeID?) -> Bool {
        for w in 0..<state.words where candidateWord(w, under: node, notUnder: other) != 0 { return true }
        return false
    }

    /// Whether the producing side must drain a source (a candidate under `node`, not under
    /// `other`) whose own size exceeds `limit`, the waiting side's: a join's size is its
    /// smaller operand's, but it completes only once the larger one is drained too, so the
    /// deferral would read more than it saves whenever that source's filter cannot cut its
    /// reads (issue 15, seventh round, seed 17 case 231: `probe join (keyed join big)`
    /// deferred the 5-row `probe` behind `keyed join big` and `big`, unindexed and also
    /// under an outer join waiting on this one, was read whole: 280 rows against 2).
    private func hasLargerSource(under node: NodeID, notUnder other: NodeID?, than limit: Int,
                                 _ nodes: [PlanNode], _ run: any RunnerContext) -> Bool {
        for w in 0..<state.words {
            var bits = candidateWord(w, under: node, notUnder: other)
            while bits != 0 {
                let id = (w << 6) + bits.trailingZeroBitCount
                bits &= bits - 1
                let drained = state.hasClosure ? drainedSize(id, nodes, run) : size(id, nodes, run)
                if drained > limit, !isKeyedBySmallerSibling(id, than: limit, nodes, run) { return true }
            }
        }
        return false
    }

    /// What draining a source reads: its size, or, for one a closure above searches on
    /// demand (through projects, selects and renames, each its only parent), at least the
    /// closure's (the search's reach, `seededReach`; the source's own estimate is the
    /// search's first fetch). Held-out seed 329 case 960 (see `searchesForwards`): the search
    /// under the producing side, sized at its 2-row first fetch, was no larger than the
    /// waiting side's keyed fetch, which was deferred behind it (927 rows against 1).
    private func drainedSize(_ source: NodeID, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int {
        let own = size(source, nodes, run)
        var id = source
        for _ in 0..<16 {
            guard nodes[id].parents.count == 1, nodes[id].outputs.isEmpty, let up = nodes[id].parents.first else { return own }
            id = up.parent
            switch nodes[id].operation {
            case .apply(.project), .apply(.select), .apply(.rename): continue
            case .apply(.closure): return Self.searchesOnDemand(id, nodes) ? max(own, size(id, nodes, run)) : own
            default: return own
            }
        }
        return own
    }

    /// Whether the source's only parent is a join or intersection whose other operand shares
    /// an attribute with it and is no larger than `limit`: that operand's keys will filter the source before it is drained
    /// (a scan under them delivers only matches), so its whole size is not what the deferral
    /// costs. Issue 15, eighth round, seed 18 case 1437: `(t0 join shared minus shared)
    /// select (b <= 12)`, `shared = t3 join t2` with `t3` unindexed (150 rows) and `t2`
    /// selected to a row; `t0` (5 rows) was not deferred behind `shared` for `t3`'s size and
    /// was read (6 rows against 1). Not for a source under two parents (seed 17 case 231:
    /// there the other parent kept the source's filter from activating).
    private func isKeyedBySmallerSibling(_ source: NodeID, than limit: Int, _ nodes: [PlanNode],
                                         _ run: any RunnerContext) -> Bool {
        // Up through selects, projects and renames, each the only parent, to the join
        // (eleventh round, seed 26 case 1442: `t2 select (…) join [b = b, d = e] t1`, `t2`
        // 150 rows unindexed and keyed by `t1`'s 5 rows through the select, kept `t0` (142
        // rows, `e > 57`, 33 rows) from being deferred behind that join: 38 against 5).
        var operand = source
        var up: Edge
        var renamed = false
        while true {
            let parents = nodes[operand].parents
            guard parents.count == 1, nodes[operand].outputs.isEmpty, let parent = parents.first else { return false }
            up = parent
            switch nodes[up.parent].operation {
            case .apply(.join), .apply(.intersection): break
            case .apply(.rename):
                renamed = true
                operand = up.parent
                continue
            case .apply(.select), .apply(.project):
                operand = up.parent
                continue
            default: return false
            }
            break
        }
        let siblings = nodes[up.parent].children
        guard siblings.count == 2 else { return false }
        let sibling = siblings[1 - up.operand]
        // A join without a shared attribute (a product) gives no key filter: seed 15 case 608.
        let shared = nodes[sibling].scheme.attributes.contains(where: nodes[operand].scheme.attributes.contains)
        guard sibling != operand, shared, size(sibling, nodes, run) <= limit else { return false }
        if !renamed, nodes[up.parent].outputs.isEmpty, let matched = siblingKeysMatch(source, up, nodes, run), matched > limit {
            return false
        }
        return true
    }

    /// The rows of `source` that the keys of the sibling at `up` match, in hundredths, when
    /// the sibling is a small table (its sample all of it) and `source` reaches `up` under
    /// its own attribute names; nil when that cannot be looked ahead. Not asked for a join
    /// or intersection that feeds an output: it is read whole whatever the order, so the
    /// rows the keys match are read anyway (as `JoinKeyLookahead.hundredths` does not look
    /// ahead there; seed 18 case 272, `HuntClassSixteenthRoundTests`). A key the sibling
    /// holds once may match many of the source's rows (a null matches every null, as `null
    /// == null`), and then the sibling's keys do not filter the source to the sibling's
    /// size. Issue 15, held-out seed 289 case 1100 at `--rows 300`: `shared = t3 project [b]
    /// project [b] intersect t0`, `output (shared minus shared) join t1`. `t0`'s one row has
    /// a null `b`, which matches 37 of `t3`'s 264 rows (unindexed on `b`); counted as keyed
    /// to `t0`'s row, `t3` did not stop `t1` (2 rows) from being deferred behind
    /// `shared minus shared`, and `t0` then `t3` were read (38 rows). Drained first, `t1`'s
    /// keys reach both `t0` and `t3`, and `t3` gets `false` (3 rows).
    private func siblingKeysMatch(_ source: NodeID, _ up: Edge, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int? {
        let sibling = nodes[up.parent].children[1 - up.operand]
        guard case let .source(sourceRelation) = nodes[source].operation, let table = sourceRelation as? MemoryTable,
            case let .source(siblingRelation) = nodes[sibling].operation, let keyTable = siblingRelation as? MemoryTable
        else { return nil }
        // The pairs with the sibling's attribute on the left: an intersection's are its
        // operands' attributes, equal by name.
        let pairs: [JoinPair]
        switch nodes[up.parent].operation {
        case let .apply(.join(joinPairs)):
            pairs = up.operand == 1 ? joinPairs : joinPairs.map { JoinPair($0.right, $0.left) }
        case .apply(.intersection):
            pairs = nodes[sibling].scheme.attributes.map { JoinPair($0, $0) }
        default:
            return nil
        }
        guard !pairs.isEmpty else { return nil }
        let sourceState = run.filterState(of: source), siblingState = run.filterState(of: sibling)
        return lookahead.matched(
            at: up.parent, in: table, filter: sourceState.isActive ? sourceState.filter : nil,
            by: keyTable, keyFilter: siblingState.isActive ? siblingState.filter : nil, pairs)
    }

    /// Whether a filter given to `node` can reach a candidate under it (and not under
    /// `other`) not deferred yet. A closure passes no filter to its operand
    /// (`Operator.filter(_:forOperandWith:)`; `false` neither) unless `closure-seeding`
    /// searches it on demand, so the sources below any other closure are read whole
    /// whichever side goes first: deferring them for the pair saves nothing, and the other
    /// side, drained second, may be the one a filter could narrow. Issue 15, held-out seed
    /// 353 case 1079 at `--rows 300`: `(t1 join [b = c] t2) project [b, e] closure [b -> e]
    /// select (e == 60) select (…) intersect t0 rename [c -> b]`; the closure's side waited
    /// for `t0`'s 28 keys, which stopped at the closure; drained first, its 3 rows complete
    /// the side empty and the intersection gives `t0` `false` (31 rows against 3).
    /// A select whose pin the keys above it miss (`keysAboveMiss`) turns the filter into
    /// `false`, which reaches every source below it, closures or not. Held-out seed 623 case
    /// 1065 at `--rows 300`: `… closure [a -> b] select (b == 73) intersect shared) join [b
    /// = e] t1`, `shared = t1 rename [d -> a, e -> b]`, `t1` one row (`e = 64`), and the
    /// closure's operand over `t0` (287 rows): the intersection's pair was passed over, and
    /// another pair deferred `t1` behind `t0`, read whole (288 rows against 1).
    /// Asked only of a graph with a closure (`State.hasClosure`).
    private func filterReachesACandidate(under node: NodeID, notUnder other: NodeID, _ nodes: [PlanNode],
                                         _ run: any RunnerContext) -> Bool {
        if Self.pinIsMissedFromAbove(node, nodes, run) { return hasUndeferredCandidate(under: node, notUnder: other) }
        state.reachWalk += 1
        if state.reachMark.count < nodes.count {
            state.reachMark.append(contentsOf: repeatElement(0, count: nodes.count - state.reachMark.count))
        }
        state.reachStack.removeAll(keepingCapacity: true)
        state.reachStack.append(node)
        while let id = state.reachStack.popLast() {
            guard state.reachMark[id] != state.reachWalk else { continue }
            state.reachMark[id] = state.reachWalk
            switch nodes[id].operation {
            case .source:
                let word = id >> 6, bit: UInt64 = 1 << UInt64(id & 63)
                if isCandidate(id), state.deferredBits[word] & bit == 0,
                   state.sourceBits[other * state.stride + word] & bit == 0 { return true }
            case .apply(.closure):
                if Self.searchesOnDemand(id, nodes) { state.reachStack.append(contentsOf: nodes[id].children) }
            case .apply:
                state.reachStack.append(contentsOf: nodes[id].children)
            case .dead:
                break
            }
        }
        return false
    }

    /// Whether `node` is a select pinning an attribute to values that the keys of the first
    /// join or intersection above it, known before they are drained, all miss.
    private static func pinIsMissedFromAbove(_ node: NodeID, _ nodes: [PlanNode], _ run: any RunnerContext) -> Bool {
        guard case let .apply(.select(predicate)) = nodes[node].operation else { return false }
        return predicate.impliedValueSets.contains { keysAboveMiss($0.value, on: $0.key, of: node, nodes, run) }
    }

    private func hasUndeferredCandidate(under node: NodeID, notUnder other: NodeID) -> Bool {
        for w in 0..<state.words where candidateWord(w, under: node, notUnder: other) & ~state.deferredBits[w] != 0 {
            return true
        }
        return false
    }

    /// Appends the candidates under `node`, not under `other` and not deferred yet, but for
    /// those whose draining cannot start `node` (issue 15, sixth round, seed 16 case 1842):
    ///
    /// - one estimated to deliver no row: draining it reads nothing and may complete a node
    ///   whose filter saves more elsewhere;
    /// - one whose rows stop at a join or intersection (every parent, below the pair's own
    ///   `pairNode`) whose other operand has not completed: they go no further until that
    ///   operand's sources, deferred themselves if under `node`, are drained.
    ///
    /// The case: `shared = t1 join t0` under both a large join's union side and an
    /// intersection with that join. The large join's pair deferred `t0` (2 rows, the side
    /// that gives `t1` its key filter) and then `t1` (estimated 0 once filtered) behind its
    /// 150-row side, which was read in full (155 rows); drained, they complete `shared`
    /// empty and the intersection's filter keeps the rest unread (2 rows).
    ///
    /// A held source is deferred all the same when the pair's filter can narrow it
    /// (`keysReach`), the producing side (`producing`: its candidates under that node
    /// and not under the other) drains no more rows than the source delivers itself, and
    /// every read of the source is the waiting side's (`everyReadIsUnder`): waiting then
    /// costs at most its own read, while its rows, held or not, start the join below, so the
    /// filter coming down could no longer narrow the source or key its sibling by its
    /// narrowed rows. Issue 15, seed 73 case 1264: `(shared_2 intersect shared_2 select (…))
    /// join t2` with `shared = t1 join t0` under `shared_2`; `t0` and `t2` five rows each,
    /// `t1` 147 unindexed. Held below `shared`, `t0` was drained first, whole, and its keys
    /// took 21 rows of `t1` (31 rows); drained first, `t2`'s keys find nothing in `t0`'s
    /// index and `t1` gets `false` (5).
    ///
    /// With `keepingProducersUpTo` (the size rule's producing size), a source that produces
    /// for a pair above at no more than that is kept too (`producesAbove`).
    private func insertCandidates(under node: NodeID, notUnder other: NodeID, of pairNode: NodeID,
                                  producing: (node: NodeID, notUnder: NodeID?)? = nil,
                                  keepingProducersUpTo producerLimit: Int? = nil, into deferred: inout [NodeID],
                                  _ nodes: [PlanNode], _ run: any RunnerContext) {
        var producingRows: Int?
        for w in 0..<state.words {
            var bits = candidateWord(w, under: node, notUnder: other) & ~state.deferredBits[w]
            let producers = producerLimit == nil || w >= state.producerBits.count ? 0 : bits & state.producerBits[w]
            while bits != 0 {
                let id = (w << 6) + bits.trailingZeroBitCount
                bits &= bits - 1
                if run.estimate(id) == 0 { continue }
                if producers & (1 << UInt64(id & 63)) != 0, let producerLimit,
                    producesAbove(id, pairNode: pairNode, atMost: producerLimit, nodes, run) { continue }
                if id != node, Self.rowsAreHeld(id, below: pairNode, waiting: node, run) {
                    guard let producing, keysReach(id, from: pairNode, waiting: node, producing: producing.node, nodes) else { continue }
                    // Asked only here: the common path (no held source) pays nothing for it.
                    let rows = producingRows ?? candidateRows(under: producing.node, notUnder: producing.notUnder,
                                                              countingOutputs: true, nodes, run)
                    producingRows = rows
                    guard rows <= size(id, nodes, run), Self.everyReadIsUnder(node, of: id, run.graph) else { continue }
                }
                state.deferredBits[w] |= 1 << UInt64(id & 63)
                deferred.append(id)
            }
        }
    }

    /// Whether `source` is itself the producing operand of another pair, sized at no more
    /// than `limit` (the deferring pair's producing side), whose waiting side has not
    /// started and holds `pairNode`: draining `pairNode`'s producing side first would start
    /// that waiting side, so the deferral trades the other pair's filter, from a side no
    /// larger, for this one's. Issue 15, held-out seed 213 case 1682 at `--rows 3000`:
    /// `shared = t0 join t1 join t3` under `(shared union shared select (…)) rename […]
    /// project [b, e] rename […] join t1`, `t1` one row, `t3` five, `t0` 2,962 indexed on
    /// `b`. `t1`'s keys were looked ahead to 34 rows of `t0`, so the inner join deferred `t1`
    /// behind `t3`; `t3`'s rows started the outer join's waiting side. Drained first, `t1`
    /// keys both joins, and `t0`, given a text key on its numeric `e`, is provably empty
    /// (6 rows against 1). Over the 47,989-query corpus: 3 cases fewer rows, none more.
    private func producesAbove(_ source: NodeID, pairNode: NodeID, atMost limit: Int,
                               _ nodes: [PlanNode], _ run: any RunnerContext) -> Bool {
        guard size(source, nodes, run) <= limit else { return false }
        for pair in state.pairs where pair.node != pairNode && nodes[pair.node].children[pair.producing] == source {
            let waitingChild = nodes[pair.node].children[pair.waiting]
            if !run.hasStarted(waitingChild), isUnder(pairNode, waitingChild, nodes) { return true }
        }
        return false
    }

    /// Whether `node` is `ancestor` or lies below it (a walk up the parents on a reused
    /// stack, given up as false past 256 steps).
    private func isUnder(_ node: NodeID, _ ancestor: NodeID, _ nodes: [PlanNode]) -> Bool {
        var top = 0, steps = 0
        pushUp(node, &top)
        while top > 0 {
            top -= 1
            let id = state.upStack[top]
            if id == ancestor { return true }
            steps += 1
            guard steps <= 256 else { return false }
            for edge in nodes[id].parents { pushUp(edge.parent, &top) }
        }
        return false
    }

    private func pushUp(_ node: NodeID, _ top: inout Int) {
        if top < state.upStack.count { state.upStack[top] = node } else { state.upStack.append(node) }
        top += 1
    }

    /// Whether the filter `pairNode` makes for its waiting operand `waiting` can narrow
    /// `source` itself: one of that operand's key attributes (a join's key pairs on that
    /// side; every attribute of an intersection's or difference's operand) reaches the
    /// source on every way down to it, renamed back through renames, kept by projects and
    /// join sides that hold it (a closure passes none: seed 34 case 1629 was `t1`'s `b`
    /// projected away and the waiting side's `b` a renamed `c`). Otherwise the source is read
    /// whole in either order, and deferring it only lets the filter reach its join through
    /// each of the waiting side's paths, where subtree copying gives each path a copy to read
    /// (seed 23 case 1655: `(shared union shared select (c < 45)) join t2`, `shared = t1
    /// join t0`, `t0` without `t2`'s key `d`; deferred, it was read twice, 8 rows against 5).
    /// A product gives no key filter at all (seed 20 case 505, `… join t0` without a shared
    /// attribute: 12 rows against 7).
    ///
    /// A rename on the way refused the source until the forty-sixth session. Held-out seed
    /// 704 case 926 at `--rows 300`: `shared = t1 rename [a -> d]` under `shared intersect
    /// (t0 intersect (t2 union shared)) rename […] rename […]`, `t1` 5 rows, `t0` 29. The
    /// inner intersection deferred `t1` behind `t0`, and the outer one, whose filter reaches
    /// `t0` through three renames, did not defer `t0` behind `shared`: `t0` went first (32
    /// rows against 5).
    private func keysReach(_ source: NodeID, from pairNode: NodeID, waiting: NodeID, producing: NodeID,
                           _ nodes: [PlanNode]) -> Bool {
        let operandKeys: [Attribute]
        switch nodes[pairNode].operation {
        case let .apply(.join(pairs)):
            guard let operand = nodes[pairNode].children.firstIndex(of: waiting) else { return false }
            operandKeys = pairs.map { operand == 0 ? $0.left : $0.right }
        case .apply(.intersection), .apply(.difference):
            operandKeys = nodes[waiting].scheme.attributes
        default:
            return false
        }
        let word = source >> 6, bit = UInt64(1) << UInt64(source & 63)
        var pending = [(node: waiting, keys: operandKeys)]
        var visits = 0
        var reached = false
        while let (id, keys) = pending.popLast() {
            if id == source {
                guard !keys.isEmpty else { return false }
                reached = true
                continue
            }
            visits += 1
            guard visits <= 64 else { return false }
            var below = keys
            var joinPairs: [JoinPair]?
            switch nodes[id].operation {
            case let .apply(.rename(map)):
                var back: [Attribute: Attribute] = [:]
                for (old, new) in map { back[new] = old }
                below = keys.map { back[$0] ?? $0 }
            case .apply(.closure): below = []
            case let .apply(.join(pairs)): joinPairs = pairs
            default: break
            }
            for (operand, child) in nodes[id].children.enumerated() {
                fillSources(child, nodes)
                guard state.sourceBits[child * state.stride + word] & bit != 0 else { continue }
                let scheme = nodes[child].scheme
                guard let joinPairs, nodes[id].children.count == 2 else {
                    pending.append((child, below.filter(scheme.contains)))
                    continue
                }
                // A join passes the filter (one IN-set over every key) only to a side that
                // holds all of it; but a side whose partner the producing side completes is
                // keyed by the join itself once that is drained.
                if isWithin(nodes[id].children[1 - operand], producing, nodes) {
                    pending.append((child, joinPairs.map { operand == 0 ? $0.left : $0.right }))
                } else {
                    pending.append((child, below.allSatisfy(scheme.contains) ? below : []))
                }
            }
        }
        return reached
    }

    /// Whether every source under `node` lies under `other` too.
    private func isWithin(_ node: NodeID, _ other: NodeID, _ nodes: [PlanNode]) -> Bool {
        fillSources(node, nodes)
        fillSources(other, nodes)
        for w in 0..<state.words where state.sourceBits[node * state.stride + w] & ~state.sourceBits[other * state.stride + w] != 0 {
            return false
        }
        return true
    }

    /// Whether every read of `source` is one the waiting side `node` makes: each node above
    /// it, up to `node`, lies under `node` and feeds no output. A read from elsewhere takes
    /// the source unfiltered whatever the order (or gets the filter only through a copy),
    /// so deferring it for the filter saves nothing there. The incremental change mode's
    /// selection change (`ChangeCostTests`): the delta tables' joins with `documents` are
    /// also read by another rule of the derivative graph; deferred, 11 rows against 8.
    private static func everyReadIsUnder(_ node: NodeID, of source: NodeID, _ graph: PlanGraph) -> Bool {
        guard graph[source].outputs.isEmpty else { return false }
        let under = Set(graph.subtree(of: node))
        var pending = [source]
        var seen: Set<NodeID> = [source]
        while let id = pending.popLast() {
            for edge in graph[id].parents where edge.parent != node && seen.insert(edge.parent).inserted {
                guard under.contains(edge.parent), graph[edge.parent].outputs.isEmpty else { return false }
                pending.append(edge.parent)
            }
        }
        return true
    }

    /// Whether a waiting side that has started (a join whose other operand delivered) still
    /// waits for its parental filter: one given later narrows what its undrained sources
    /// fetch (`late-filter-narrowing` narrows the edges it keyed itself), so the pair's
    /// trade holds as for a side not started. Issue 15, held-out seed 281 case 62 at the
    /// default rows: `t1 join t0 join ((shared join (t0 minus shared)) select (…) intersect
    /// t0)`, `shared = t1 rename […]`, `t1` one row. Its row started the first join and keyed
    /// its copy of `t0` to 12 rows, the difference's copy to none; on the tie the first
    /// join's copy was drained (13 rows), where draining the other empties the intersection,
    /// whose `false` keeps it unread (1 row).
    private static func startedButWaiting(_ node: NodeID, _ run: any RunnerContext) -> Bool {
        let state = run.filterState(of: node)
        return !state.isActive && state.remainingParents > 0
    }

    /// Whether every parent of `source` is a join or intersection (other than `pairNode` and
    /// the waiting side `waiting`)
    /// whose other operand, a different node, has not completed.
    private static func rowsAreHeld(_ source: NodeID, below pairNode: NodeID, waiting: NodeID, _ run: any RunnerContext) -> Bool {
        let graph = run.graph
        let parents = graph[source].parents
        guard !parents.isEmpty else { return false }
        for edge in parents {
            // A join that is the waiting side itself starts with the source's rows (eleventh
            // round, seed 23 case 1667: `t2 join t0` waiting on a one-row side's keys, each
            // held by the other, neither deferred: 5 rows against 1).
            guard edge.parent != pairNode, edge.parent != waiting, graph[edge.parent].children.count == 2 else { return false }
            switch graph[edge.parent].operation {
            case .apply(.join), .apply(.intersection): break
            default: return false
            }
            let sibling = graph.child(at: Edge(parent: edge.parent, operand: 1 - edge.operand))
            if sibling == source || run.isComplete(sibling) { return false }
        }
        return true
    }

    /// A rough size for what a node will deliver, in hundredths of a row (so a guessed
    /// fraction of a small table does not round into a tie), from its sources' current
    /// estimates (no estimate counts as largest), memoized for the call: a union adds its
    /// operands, a join or an intersection is as small as its smaller operand (which will
    /// filter the other), a difference as its left operand, and the other operators as
    /// their operand.
    private func size(_ node: NodeID, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int {
        if state.sizeCall[node] == state.call { return state.sizes[node] }
        var found = 0
        // Matched without binding the operator: binding copied its payload (join pairs,
        // predicates) at every call. A source's (empty) children are not read.
        switch nodes[node].operation {
        case .source:
            found = sourceSize(node, nodes, run)
        case .dead: found = 0
        case .apply(.union):
            found = fold(.sum, node, nodes, run) { self.size(nodes[node].children[$0], nodes, run) }
        case .apply(.join), .apply(.intersection):
            found = fold(.smallest, node, nodes, run) { self.size(nodes[node].children[$0], nodes, run) }
        case .apply(.select):
            found = fold(.first, node, nodes, run) { self.size(nodes[node].children[$0], nodes, run) }
            if found > 0, Self.selectsNothingOfItsSource(node, nodes) { found = 0 }
        case .apply(.difference), .apply(.project), .apply(.rename):
            found = fold(.first, node, nodes, run) { self.size(nodes[node].children[$0], nodes, run) }
        case let .apply(.closure(from, to)):
            found = fold(.first, node, nodes, run) { self.size(nodes[node].children[$0], nodes, run) }
            found = seededReach(node, from, to, firstFetch: found, nodes, run) ?? found
        }
        state.sizes[node] = found
        state.sizeCall[node] = state.call
        return found
    }

    /// Whether `node` is a select straight over a source whose column ranges rule its
    /// predicate out (`SourceRelation.provablyMatchesNothing`): it delivers nothing whatever
    /// the source's filter, which its other parents may still keep from being the
    /// predicate. Held-out seed 621 case 410 at `--rows 300`: `(t0 select (c > 2^53) minus
    /// (…)) join t1`, `t0` 64 rows (none above 2^53; its hash index answers no range) also
    /// under a union in the difference's right operand. Sized at `t0`'s 64 rows, the
    /// difference was deferred behind the product's other operand `t1` (5 rows), read
    /// first; sized at nothing, `t2`'s one row goes first and `t0`, once its union's side
    /// is copied away, is provably empty (8 rows against 1).
    private static func selectsNothingOfItsSource(_ node: NodeID, _ nodes: [PlanNode]) -> Bool {
        guard nodes[node].children.count == 1, case let .source(source) = nodes[nodes[node].children[0]].operation,
            case let .apply(.select(predicate)) = nodes[node].operation
        else { return false }
        return source.provablyMatchesNothing(predicate)
    }

    /// Calls `body` with each distinct source under `node` (its source bits), in place.
    func forEachSource(under node: NodeID, _ nodes: [PlanNode], _ body: (NodeID) -> Void) {
        fillSources(node, nodes)
        for w in 0..<state.words {
            var bits = state.sourceBits[node * state.stride + w]
            while bits != 0 {
                body((w << 6) + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
    }

    /// How an operator's size follows from its operands': a union adds them, at most its
    /// distinct sources' sizes; a join or an intersection is its smallest, at least the rows
    /// the key look-ahead finds (`lookahead`), or the operand that holds the other below it
    /// (`operandHoldingTheOther`); the others are their first operand's.
    private enum Fold { case sum, smallest, first }

    /// `kind`'s size of `node` from its operands' (`part(operand)`), one definition for `size`
    /// and `narrowedWalk`; `scale` applies the latter's filter to the two bounds.
    private func fold(_ kind: Fold, _ node: NodeID, _ nodes: [PlanNode], _ run: any RunnerContext,
                      scale: (Int) -> Int = { $0 }, part: (Int) -> Int) -> Int {
        let operands = nodes[node].children.count
        switch kind {
        case .sum:
            var found = 0
            for operand in 0..<operands {
                let (added, overflow) = found.addingReportingOverflow(part(operand))
                found = overflow ? Int.max : added
            }
            guard operands > 1, !(state.hasClosure && Self.hasSearchOnDemand(under: node, nodes)) else { return found }
            return min(found, scale(distinctSourceSize(node, nodes, run)))
        case .smallest:
            if let whole = Self.operandHoldingTheOther(node, nodes) { return part(whole) }
            var found = operands == 0 ? 0 : Int.max
            for operand in 0..<operands { found = min(found, part(operand)) }
            if found < Int.max, let matched = lookahead.hundredths(node, nodes, run) { found = max(found, scale(matched)) }
            return found
        case .first:
            return operands == 0 ? 0 : part(0)
        }
    }

    /// The operand of a two-operand join or intersection that holds the other one below it
    /// through joins, intersections, selects and differences' left operands only: each of
    /// its rows then extends a row of the other operand, so the node delivers exactly its
    /// rows (`x join σ(x join z) = σ(x join z)`), not the smaller operand's. Issue 15,
    /// held-out seed 263 case 1163 at `--rows 300`: `shared = (t1 join t0) select (…)`,
    /// `shared join t1`, where `t1`'s one row has a null key that matches 23 of `t0`'s rows.
    /// Sized at `t1`'s one row, that join kept a two-row sibling (whose keys match nothing)
    /// waiting, and `t0`'s 23 rows were read (24 rows against 3).
    private static func operandHoldingTheOther(_ node: NodeID, _ nodes: [PlanNode]) -> Int? {
        let children = nodes[node].children
        guard children.count == 2, children[0] != children[1] else { return nil }
        for holder in 0..<2 {
            var budget = 32
            if holds(children[holder], children[1 - holder], nodes, &budget) { return holder }
        }
        return nil
    }

    /// Whether `held` is `node`'s operand, or below it, along operands whose rows each
    /// extend one of theirs (see `operandHoldingTheOther`); `budget` bounds the walk.
    private static func holds(_ node: NodeID, _ held: NodeID, _ nodes: [PlanNode], _ budget: inout Int) -> Bool {
        budget -= 1
        guard budget > 0 else { return false }
        let children = nodes[node].children
        switch nodes[node].operation {
        case .apply(.join), .apply(.intersection), .apply(.select):
            return children.contains { $0 == held || holds($0, held, nodes, &budget) }
        case .apply(.difference):
            return children[0] == held || holds(children[0], held, nodes, &budget)
        default:
            return false
        }
    }

    /// A source's size: sampled (`SampledEstimates`) when its active filter is one its
    /// estimate cannot see (the estimate is its whole table), the smaller of its estimate and
    /// a sample when an index answers that filter only in part (`PartlyIndexedSamples`),
    /// else its estimate, guessed down by the filter's selectivity (`guessed`); no estimate
    /// counts as largest. The checks the three share (the active filter, the memory table,
    /// its whole count, the estimate) are made once here, from the nodes this call already
    /// holds: each asked them again through the runner (the graph getter copies its node
    /// list), several hundred instructions per source per pick (README "Per-run fixed
    /// cost, step 11"). The answers are the same: the sample is taken when the estimate is
    /// at least the whole (positive) table, the partial index's sample when it is below it.
    private func sourceSize(_ node: NodeID, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int {
        guard let estimate = run.estimate(node) else { return Int.max }
        let state = run.filterState(of: node)
        guard state.isActive, let filter = state.filter, !filter.isConstantTrue else {
            let (scaled, overflow) = estimate.multipliedReportingOverflow(by: 100)
            return overflow ? Int.max : scaled
        }
        if case let .source(source) = nodes[node].operation, let table = source as? MemoryTable,
            let whole = nodes[node].approximateCount {
            if whole > 0, estimate >= whole {
                if let sampled = samples.hundredths(node, table: table, filter: filter) { return sampled }
            } else if estimate > 0, estimate < whole,
                let sampled = partlyIndexed.hundredths(node, table: table, filter: filter, estimate: estimate) {
                return sampled
            }
        }
        return Self.guessed(estimate, source: node, nodes: nodes, run: run)
    }

    /// Whether a closure searched on demand (`searchesOnDemand`) lies under `node` (within 64
    /// nodes; beyond, one is assumed). Its source's estimate is the search's first fetch,
    /// while the search goes on round by round (`seededReach`), so the distinct sources'
    /// sizes do not bound a union over it. Issue 15, held-out seed 392 case 1607 at `--rows
    /// 300`: `shared = t0 closure [c -> e] select (c == "k42" or c == 67.5) select (c > 35)`,
    /// `(shared join shared union shared) join t1`, `t1` one row. The union was capped at
    /// `t0`'s first fetch (one row), a tie with `t1`, so the search went first and read 39
    /// rows; drained first, `t1`'s key `e == 23` empties it (1 row). A closure over anything
    /// else reads its operand whole, so the cap stays (seed 387 case 410: uncapped, a union
    /// of `shared` and `shared closure […]` outweighed `t0`, which went first and was read
    /// whole, 430 rows against 160).
    private static func hasSearchOnDemand(under node: NodeID, _ nodes: [PlanNode]) -> Bool {
        var pending = [node]
        var seen: Set<NodeID> = [node]
        while let id = pending.popLast() {
            if case .apply(.closure) = nodes[id].operation, searchesOnDemand(id, nodes) { return true }
            for child in nodes[id].children where seen.insert(child).inserted { pending.append(child) }
            if seen.count > 64 { return true }
        }
        return false
    }

    /// The sizes of the distinct sources under `node`, added: a union of one source with
    /// itself (`t3 union t3 rename [b -> c, c -> b]`) delivers no more than the source, where
    /// adding its operands counts it twice. Issue 15, thirteenth round, seed 31 case 1168:
    /// that union, 1 row counted as 2, was deferred behind a join whose one-row side's null
    /// key then matched 25 rows of the other (26 rows against 3).
    private func distinctSourceSize(_ node: NodeID, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int {
        var total = 0
        forEachSource(under: node, nodes) { id in
            guard total < Int.max else { return }
            let (added, overflow) = total.addingReportingOverflow(size(id, nodes, run))
            total = overflow ? Int.max : added
        }
        return total
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
