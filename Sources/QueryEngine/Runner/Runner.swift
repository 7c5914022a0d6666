import Relational

/// The query runner's core loop (seed 000): pick an initiator, pull its rows in batches,
/// push each batch through the graph as far as it goes, and repeat until every source is
/// drained. Heuristics act through the hooks of `Heuristic`; this file names none of them.
final class Runner: RunnerContext {
    var graph: PlanGraph
    var counters: RunCounters
    let heuristics: [any Heuristic]
    let batchSize: Int
    var runtimes: [NodeRuntime] = []
    /// Entries of `runtimes` in use: one per node of the graph. Past them, state of copies an
    /// earlier run of the same prepared query made, kept for this run's copies to reset
    /// (`registerCopies`) instead of making and freeing an object per copy.
    private var registeredRuntimes = 0
    var outputs: [ResultRows]
    var growthBudget: GrowthBudget
    /// Source estimates, per (source, filter), for the whole run.
    var estimates: EstimateCache
    /// Checked mode's tracking (nil when unchecked); see `EngineChecks`.
    let checks: InvariantChecks?
    /// Broken invariants recorded so far; the run fails with the first.
    var violations: [String] = []
    /// Time inside each heuristic's hooks.
    let hookTimer: HookTimer
    /// Source nodes not yet drained, in declaration order (copies, numbered later, come last).
    var undrainedSources: [NodeID] = []
    /// Sources fetched round by round for the node above them (`OnDemandOperand.swift`).
    var onDemandSources: [NodeID: OnDemandSource] = [:]
    /// The filter `provideFilter` is giving, and along which edge, while the heuristics'
    /// `willProvideFilter` hooks run (`filterBeingProvided`).
    var providing: (edge: Edge, filter: Predicate)?

    /// `QueryEngine.rowLimit`, and the rows emitted so far: past the limit `emit` delivers
    /// nothing more and `run` throws `RunTooLarge` once the drain under way returns.
    var rowLimit = Int.max
    private(set) var rowsEmitted = 0

    /// What the run starts from (`RunTemplate`), computed once per prepared query.
    let template: RunTemplate

    /// `kernels`: each node's compiled kernel (`NodeRuntime.compile`), of which the run
    /// takes empty copies; nil compiles them here. `template`: nil computes it here.
    /// `spareTimer`: the hook timer an earlier run of the same prepared query (same
    /// heuristics, plan and timing) finished with, reset here instead of made anew;
    /// `spareEstimates` likewise, the estimate cache it handed back (`handOverEstimates`).
    init(
        graph: PlanGraph, heuristics: [any Heuristic], counters: RunCounters, batchSize: Int, checked: Bool = false,
        kernels: [(any Kernel)?]? = nil, timesHooks: Bool = true, template: RunTemplate? = nil, hookPlan: HookPlan? = nil,
        reusing spare: [NodeRuntime]? = nil, spareTimer: HookTimer? = nil, spareEstimates: EstimateCache? = nil
    ) throws {
        let template = template ?? RunTemplate(graph: graph, heuristics: heuristics)
        self.template = template
        self.graph = graph
        self.checks = checked ? InvariantChecks() : nil
        if let spareTimer {
            spareTimer.resetForRun()
            self.hookTimer = spareTimer
        } else {
            self.hookTimer = HookTimer(
                heuristics: heuristics, plan: hookPlan ?? HookPlan(heuristics: heuristics, graph: graph),
                names: template.heuristicNames, timing: timesHooks)
        }
        self.heuristics = heuristics
        self.counters = counters
        self.batchSize = max(1, batchSize)
        self.growthBudget = GrowthBudget(limit: template.growthLimit)
        if var spareEstimates {
            spareEstimates.startNextRun()
            self.estimates = spareEstimates
        } else {
            self.estimates = EstimateCache(nodes: template.nodeCount)
        }
        self.counters.growthBudget = growthBudget.limit
        // One name per drained source: grown from empty, the list took two allocations;
        // room for as many copies of sources again (the seed query drains one copy, and a
        // third name outgrew a list of two).
        self.counters.initiatorOrder.reserveCapacity(2 * template.sources.count)
        self.outputs = graph.outputNodes.map { _ in ResultRows() }
        try addRuntimes(kernels, reusing: spare)
    }

    /// Runs the query to completion and returns each output's rows (decoded on demand).
    func run() throws -> [ResultRows] {
        let order = template.order
        forEachHeuristic(.nodesAdded) { $0.nodesAdded(order, run: self) }
        try throwIfViolated()
        while let initiator = nextInitiator() {
            try drain(initiator)
            if rowsEmitted > rowLimit { throw RunTooLarge(limit: rowLimit, emitted: rowsEmitted) }
            try throwIfViolated()
        }
        for (output, node) in graph.outputNodes.enumerated() where !runtimes[node].complete {
            throw RelationError.unsupported("internal error: output \(output) never completed")
        }
        // Counted from nothing, a run whose nodes moved the same rows as the last run's
        // (the usual case for a prepared query) reports the same per-source and per-node
        // lists: the last run's are given again (`RunTemplate.lastCounts`).
        let fresh = counters.rowsReadBySource.isEmpty && counters.perNode.isEmpty
        if fresh, template.lastCounts.matchesLiveNodes(of: self) {
            counters.rowsReadBySource = template.lastCounts.rowsReadBySource
            counters.perNode = template.lastCounts.perNode
            return outputs
        }
        let live = liveNodeIDs()
        counters.rowsReadBySource.reserveCapacity(template.sources.count)
        for id in live {
            if case let .source(source) = graph[id].operation, runtimes[id].rowsOut > 0 {
                counters.rowsReadBySource[ObjectIdentifier(source), default: 0] += runtimes[id].rowsOut
            }
        }
        counters.perNode = live.map {
            NodeCounters(node: $0, label: $0 < template.nodeCount ? template.labels[$0] : RunTemplate.label(graph[$0]),
                         rowsIn: runtimes[$0].rowsIn, rowsOut: runtimes[$0].rowsOut)
        }
        if fresh { template.lastCounts.record(live, self) }
        return outputs
    }

    /// The node of the optimized graph that `id` is a copy of (through copies of copies),
    /// or `id` itself: a copy has its original's operation and name, so its label and
    /// source are that node's.
    func templateOriginal(of id: NodeID) -> NodeID {
        var node = id
        while node >= template.nodeCount, let original = graph.nodes[node].copiedFrom { node = original }
        return node
    }

    /// The graph's live nodes: the template's, then live copies.
    private func liveNodeIDs() -> [NodeID] {
        guard graph.nodes.count > template.nodeCount else { return template.liveNodes }
        var ids: [NodeID] = []
        _ = forEachLiveNode { ids.append($0); return true }
        return ids
    }

    /// Visits the live nodes in the one order every per-node list uses (the template's live
    /// nodes, then the live copies added in the run) until `visit` returns false; whether
    /// every one was visited.
    func forEachLiveNode(_ visit: (NodeID) -> Bool) -> Bool {
        for id in template.liveNodes where !visit(id) { return false }
        if graph.nodes.count > template.nodeCount {
            for id in template.nodeCount..<graph.nodes.count where graph[id].isLive && !visit(id) { return false }
        }
        return true
    }

    /// Creates runtime state for every node at start, or resets `spare` (the state an
    /// earlier run of the same prepared query handed back, `handOverRuntimes`) in place.
    private func addRuntimes(_ kernels: [(any Kernel)?]?, reusing spare: [NodeRuntime]?) throws {
        undrainedSources = template.sources
        if let spare, let kernels, spare.count >= graph.nodes.count, kernels.count == graph.nodes.count {
            runtimes = spare
            for id in graph.nodes.indices { runtimes[id].reset(shape: template.shapes[id], compiled: kernels[id]) }
            registeredRuntimes = graph.nodes.count
            return
        }
        runtimes.reserveCapacity(graph.nodes.count)
        for id in graph.nodes.indices {
            let compiled = try kernels.map { $0[id] } ?? NodeRuntime.compile(graph[id], in: graph)
            runtimes.append(NodeRuntime(shape: template.shapes[id], compiled: compiled))
        }
        registeredRuntimes = runtimes.count
    }

    /// Gives up the run's state of the nodes it started with, and of its copies (kernels
    /// dropped: a copy of the next run may copy another node), for the next run of the same
    /// prepared query to reset instead of making anew. The runner must not run again after this.
    func handOverRuntimes() -> [NodeRuntime] {
        defer { runtimes = [] }
        for id in runtimes.indices {
            if id < template.nodeCount { runtimes[id].releaseKernelState() } else { runtimes[id].dropKernel() }
        }
        return runtimes
    }

    /// Gives up the run's graph, for the next run of the same prepared query to restore
    /// (`PlanGraph.restore(to:)`) instead of copying the prepared one again.
    func handOverGraph() -> PlanGraph {
        defer { graph = PlanGraph() }
        return graph
    }

    /// Gives up the run's estimate cache for the next run of the same prepared query to
    /// empty and reuse (the runner keeps none, so the next run's cache is not shared).
    func handOverEstimates() -> EstimateCache {
        defer { estimates = EstimateCache() }
        return estimates
    }

    /// Creates runtime state for copies just added; each shares its original's compiled
    /// operation.
    func registerCopies() {
        for id in registeredRuntimes..<graph.nodes.count {
            let original = runtimes[graph[id].copiedFrom ?? id]
            if id < runtimes.count {
                runtimes[id].reset(copy: id, in: graph, compiledLike: original)
            } else {
                runtimes.append(NodeRuntime(copy: id, in: graph, compiledLike: original))
            }
            if graph[id].operation.isSource { undrainedSources.append(id) }
        }
        registeredRuntimes = max(registeredRuntimes, graph.nodes.count)
    }

    private func nextInitiator() -> NodeID? {
        // Only sources are candidates: keeping their list avoids scanning every node per pick.
        // Compacted in place: `removeAll(where:)` took the array's generic range replacement.
        var kept = 0
        for i in undrainedSources.indices where !runtimes[undrainedSources[i]].complete {
            undrainedSources[kept] = undrainedSources[i]
            kept += 1
        }
        while undrainedSources.count > kept { undrainedSources.removeLast() }
        var candidates = undrainedSources
        guard !candidates.isEmpty else { return nil }
        var deferred: [NodeID] = []
        for i in hookTimer.plan.callers[HookTimer.Hook.deferInitiators.rawValue] {
            let more = hookTimer.time(i, .deferInitiators) { heuristics[i].deferInitiators(candidates, run: self) }
            // The first list taken as it is, not copied into a new one.
            if deferred.isEmpty { deferred = more } else { deferred += more }
        }
        if !deferred.isEmpty {
            let kept = candidates.filter { !deferred.contains($0) }
            if !kept.isEmpty { candidates = kept }
        }
        let first = candidates[0]
        for i in hookTimer.plan.callers[HookTimer.Hook.chooseInitiator.rawValue] {
            let choice = hookTimer.time(i, .chooseInitiator) { heuristics[i].chooseInitiator(from: candidates, run: self) }
            if let choice { return choice }
        }
        return first
    }

    private func drain(_ id: NodeID) throws {
        guard case let .source(source) = graph[id].operation else { return }
        let runtime = runtimes[id]
        runtime.started = true
        counters.initiatorOrder.append(graph[id].name ?? source.sourceName)
        let filter = runtime.filterActive ? runtime.filter : nil
        // Most runs fetch nothing on demand: an empty dictionary is not hashed into.
        if !onDemandSources.isEmpty, let plan = onDemandSources[id] {
            try drainOnDemand(id, source, plan)
            markComplete(id)
            return
        }
        if let filter, let parts = selectiveDisjuncts(filter, of: source) {
            try drainByDisjuncts(id, source, parts)
            markComplete(id)
            return
        }
        if filter != nil { counters.filteredFetches += 1 }
        try drain(id, source, filter: filter)
        markComplete(id)
    }

    /// Delivers a node's new rows to its outputs and parents.
    func emit(_ id: NodeID, _ batch: Batch) {
        rowsEmitted &+= batch.count
        guard rowsEmitted <= rowLimit else { return }
        checkEmission(id, batch)
        runtimes[id].rowsOut += batch.count
        // Results keep the batches; rows are decoded when a caller reads them.
        for output in graph.nodes[id].outputs { outputs[output].append(batch) }
        for edge in graph.nodes[id].parents { receive(batch, along: edge) }
    }

    /// A kernel that stopped because its own work passed the row limit (`Kernel.limitWork`):
    /// the run is abandoned as if its nodes had emitted too many rows (`RunTooLarge`).
    /// Called only under a limit, so that a run without one pays no call per completion.
    func abandonIfPastTheLimit(_ kernel: any Kernel) {
        if kernel.workExceeded, rowsEmitted <= rowLimit { rowsEmitted = rowLimit &+ 1 }
    }

    /// Delivers decoded rows (tests and row sources).
    func emit(_ id: NodeID, _ rows: [Row]) { emit(id, Batch(rows)) }

    func markComplete(_ id: NodeID) {
        runtimes[id].complete = true
        for edge in graph[id].parents { operandCompleted(edge) }
    }

    private func operandCompleted(_ edge: Edge) {
        let runtime = runtimes[edge.parent]
        runtime.operandComplete[edge.operand] = true
        forEachHeuristic(.operandCompleted) { $0.operandCompleted(edge, run: self) }
        flushOnOperandComplete(edge)
        if !runtime.complete && runtime.operandComplete.all {
            markComplete(edge.parent)
        }
    }

    /// Calls one hook of every heuristic its `HookPlan` lists, in catalog order, timing each call.
    func forEachHeuristic(_ hook: HookTimer.Hook, _ call: (any Heuristic) -> Void) {
        for i in hookTimer.plan.callers[hook.rawValue] { hookTimer.time(i, hook) { call(heuristics[i]) } }
    }

    // MARK: RunnerContext

    func filterState(of node: NodeID) -> FilterState {
        let r = runtimes[node]
        return FilterState(filter: r.filter, remainingParents: r.remainingParents, isActive: r.filterActive)
    }

    func filterVersion(of node: NodeID) -> Int { runtimes[node].filterVersion }

    func hasStarted(_ node: NodeID) -> Bool { runtimes[node].started }

    func isComplete(_ node: NodeID) -> Bool { runtimes[node].complete }

    func hasUndrainedSource(below node: NodeID) -> Bool {
        // A source is its own answer, with no list made: the join filter heuristics ask it
        // of a join's other operand, most often a source.
        if case .source = graph.nodes[node].operation {
            let runtime = runtimes[node]
            return !runtime.complete && !runtime.started
        }
        var seen = SmallSet(node)
        var pending = [node]
        while let id = pending.popLast() {
            let runtime = runtimes[id]
            if runtime.complete { continue }
            if case .source = graph[id].operation {
                if !runtime.started { return true }
                continue
            }
            for child in graph[id].children where seen.insert(child) { pending.append(child) }
        }
        return false
    }

    func hasProvided(along edge: Edge) -> Bool { runtimes[edge.parent].providedToOperand[edge.operand] != nil }

    func providedFilter(along edge: Edge) -> Predicate? { runtimes[edge.parent].providedToOperand[edge.operand] }

    func filterBeingProvided(along edge: Edge) -> Predicate? {
        guard let providing, providing.edge == edge else { return nil }
        return providing.filter
    }

    func estimate(_ node: NodeID) -> Int? {
        let runtime = runtimes[node]
        // A memo hit (only sources have one) binds no source and copies no filter: several
        // hits a pick (README "Per-run fixed cost, step 13").
        if onDemandSources.isEmpty,
            let memo = estimates.memoized(node: node, active: runtime.filterActive && runtime.filter != nil) {
            return memo
        }
        guard case let .source(source) = graph.nodes[node].operation else { return nil }
        let estimate: Int?
        if let onDemand = onDemandSources.isEmpty ? nil : onDemandSources[node] {
            // A source fetched on demand is estimated by its first fetch.
            estimate = estimates.estimate(source, filter: firstFetchFilter(onDemand))
        } else {
            estimate = estimates.estimate(node: node, source, activeFilter: runtime.filterActive ? runtime.filter : nil)
        }
        counters.estimatesAsked = estimates.asked
        return estimate
    }

    func readableEstimate(_ node: NodeID) -> Int? {
        guard !onDemandSources.isEmpty, onDemandSources[node] != nil, case let .source(source) = graph.nodes[node].operation
        else { return estimate(node) }
        let runtime = runtimes[node]
        return estimates.estimate(node: node, source, activeFilter: runtime.filterActive ? runtime.filter : nil)
    }

    func operandRows(of node: NodeID, operand: Int, atMost limit: Int) -> [Row]? {
        guard let kernel = runtimes[node].kernel else { return nil }
        let count = kernel.retainedRowCount(ofOperand: operand)
        if let count, count > limit { return nil }
        guard let rows = kernel.retainedRows(ofOperand: operand) else { return nil }
        if checks != nil, count != rows.count { uncountedRows(node, operand, count, rows.count) }
        return rows.count <= limit ? rows : nil
    }

    func joinKeys(of join: NodeID, operand: Int) -> (keys: Set<Row>, rows: Int) {
        guard let kernel = runtimes[join].kernel as? HashJoinKernel else { return ([], 0) }
        return (kernel.keys(ofOperand: operand), kernel.rowsReceived(operand))
    }
}
