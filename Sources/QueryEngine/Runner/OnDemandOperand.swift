import Relational

/// Whether `driveOperandOnDemand` took over a node's operand.
public enum OnDemandOutcome: Sendable, Equatable {
    case driven
    /// A node between the operator and its source has another parent or feeds an output;
    /// a private copy of the subtree at this edge (`copySubtree`), the topmost such node's,
    /// would make it possible.
    case shared(Edge)
    /// The operator cannot pull its operand by key, its filter pins no attribute the
    /// source can fetch by, the operand is not a chain of single-operand nodes over one
    /// source, or something in it has started.
    case impossible
}

/// A source whose rows are fetched round by round for the node above it, instead of being
/// drained once.
struct OnDemandSource {
    let driver: NodeID
    /// The nodes from the driver's operand down to the source, top first.
    let chain: [NodeID]
    let firstDemand: KeyDemand
}

// The mechanism behind just-in-time seeding: a node whose kernel can pull its operand by
// key (`DemandDrivenKernel`) asks, round by round, for the operand rows whose attribute
// takes one of the keys it needs next. The runner turns each demand into a filter on the
// operand's source (rewritten down the chain of single-operand nodes, where it is exact),
// fetches those rows and pushes them up the usual path, so every row is counted in
// `sourceRowsRead` and in each node's rows in and out. *When* to do this is a heuristic's
// decision; the runner names none.
extension Runner {
    func driveOperandOnDemand(_ node: NodeID) -> OnDemandOutcome {
        guard let kernel = runtimes[node].kernel as? DemandDrivenKernel,
            runtimes[node].filterActive, let filter = runtimes[node].filter,
            graph[node].children.count == 1, !runtimes[node].complete
        else { return .impossible }
        var chain: [NodeID] = []
        var shared: Edge?
        var parent = node
        var current = graph[node].children[0]
        while true {
            chain.append(current)
            let n = graph[current]
            if runtimes[current].started || runtimes[current].complete { return .impossible }
            if shared == nil && (n.parents.count != 1 || !n.outputs.isEmpty) {
                shared = Edge(parent: parent, operand: 0)
            }
            parent = current
            if case .source = n.operation { break }
            guard case .apply = n.operation, n.children.count == 1 else { return .impossible }
            current = n.children[0]
        }
        guard let source = chain.last, case let .source(relation) = graph[source].operation else { return .impossible }
        // A probe filter on one attribute tells whether the source has an index for it.
        func canFetchBy(_ attribute: Attribute) -> Bool {
            guard let derived = filterDown(chain: chain, attribute *== .null) else { return false }
            return relation.canFetchSelectively(derived)
        }
        guard chainPassesKeys(chain, from: node, filter) else { return .impossible }
        if let driven = onDemandSources[source], driven.driver == node {
            return restartDemand(kernel, filter, driven, source, relation, canFetchBy) ? .driven : .impossible
        }
        if let shared {
            // Only report that a copy would help when the kernel could use it.
            return kernelCouldDemand(filter, canFetchBy) ? .shared(shared) : .impossible
        }
        guard let demand = kernel.beginDemand(filter: filter, canFetchBy: canFetchBy) else { return .impossible }
        onDemandSources[source] = OnDemandSource(driver: node, chain: chain, firstDemand: demand)
        return .driven
    }

    /// The driver's filter has narrowed since its demand began, before its source started
    /// (a join side's keys pinning `from` after a select pinned `to`): the search starts
    /// again from the pinned attribute whose fetch is estimated smallest, when that is
    /// smaller than the current first demand's.
    private func restartDemand(_ kernel: DemandDrivenKernel, _ filter: Predicate, _ driven: OnDemandSource,
                               _ source: NodeID, _ relation: any SourceRelation,
                               _ canFetchBy: (Attribute) -> Bool) -> Bool {
        func fetchEstimate(_ demand: KeyDemand) -> Int? {
            guard let keyFilter = fetchFilter(driven, keys: Predicate.any(demand.keys.map { demand.attribute *== $0 }))
            else { return nil }
            return estimates.estimate(relation, filter: keyFilter)
        }
        guard let current = fetchEstimate(driven.firstDemand) else { return false }
        var best: (demand: KeyDemand, rows: Int)?
        for candidate in kernel.demandCandidates(filter: filter, canFetchBy: canFetchBy) {
            guard let rows = fetchEstimate(candidate) else { continue }
            if rows < (best?.rows ?? current) { best = (candidate, rows) }
        }
        guard let best, kernel.restartDemand(best.demand) else { return false }
        onDemandSources[source] = OnDemandSource(driver: driven.driver, chain: driven.chain, firstDemand: best.demand)
        return true
    }

    /// Whether some attribute the filter pins can be fetched by (without switching the
    /// kernel to demand mode).
    private func kernelCouldDemand(_ filter: Predicate, _ canFetchBy: (Attribute) -> Bool) -> Bool {
        filter.impliedValueSets.keys.contains(where: canFetchBy)
    }

    /// Every node of the chain can rewrite a key filter for its operand.
    private func chainPassesKeys(_ chain: [NodeID], from node: NodeID, _ filter: Predicate) -> Bool {
        filter.impliedValueSets.keys.contains { filterDown(chain: chain, $0 *== .null) != nil }
    }

    /// A filter on the driver's operand (the chain's top) rewritten down to the source.
    func filterDown(chain: [NodeID], _ filter: Predicate) -> Predicate? {
        var current = filter
        for parent in chain.dropLast() {
            guard let derived = derivedFilter(current, along: Edge(parent: parent, operand: 0)) else { return nil }
            current = derived
        }
        return current
    }

    /// The source filter of an on-demand source's first fetch (for its estimate).
    func firstFetchFilter(_ plan: OnDemandSource) -> Predicate? {
        let d = plan.firstDemand
        return fetchFilter(plan, keys: Predicate.any(d.keys.prefix(Self.keysPerFetch).map { d.attribute *== $0 }))
    }

    /// The filter one fetch puts on the source: the key filter rewritten down the chain, and
    /// the source's own active filter (a select's predicate pushed down), which drops rows
    /// before they are counted, as it does when the source is drained whole.
    private func fetchFilter(_ plan: OnDemandSource, keys: Predicate) -> Predicate? {
        guard let keysAtSource = filterDown(chain: plan.chain, keys) else { return nil }
        guard let source = plan.chain.last, runtimes[source].filterActive, let own = runtimes[source].filter
        else { return keysAtSource }
        return .all([keysAtSource, own])
    }

    /// At most this many keys go into one source fetch: a source tests each candidate row
    /// against the OR of equalities, so a fetch costs rows × keys comparisons.
    static let keysPerFetch = 64

    /// Drains a source for the node above it, one demand after another.
    func drainOnDemand(_ id: NodeID, _ source: any SourceRelation, _ plan: OnDemandSource) throws {
        guard let kernel = runtimes[plan.driver].kernel as? DemandDrivenKernel else { return }
        // A driver whose filter has since narrowed to nothing (an empty join side's `false`)
        // needs no rows: its pinned keys came from the filter it had when it began.
        if runtimes[plan.driver].filterActive, runtimes[plan.driver].filter?.isUnsatisfiable == true { return }
        if rowLimit < Int.max { kernel.limitWork(to: rowLimit) }
        var demand: KeyDemand? = plan.firstDemand
        // Past the row limit the run is abandoned: no further round is fetched.
        while let d = demand, rowsEmitted <= rowLimit {
            var rowsThisRound = 0
            for start in stride(from: 0, to: d.keys.count, by: Self.keysPerFetch) {
                let keys = d.keys[start..<min(d.keys.count, start + Self.keysPerFetch)]
                let keyFilter = Predicate.any(keys.map { d.attribute *== $0 })
                guard let filter = fetchFilter(plan, keys: keyFilter) else {
                    throw RelationError.unsupported("internal error: a key filter no longer reaches source node \(id)")
                }
                counters.filteredFetches += 1
                rowsThisRound += try drain(id, source, filter: filter)
            }
            counters.onDemandRoundRows.append(rowsThisRound)
            let (rows, next) = kernel.nextDemand()
            if !rows.isEmpty { emit(plan.driver, rows) }
            if rowLimit < Int.max { abandonIfPastTheLimit(kernel) }
            demand = next
        }
    }
}
