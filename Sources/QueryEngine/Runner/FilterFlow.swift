import Relational

// Parental filters (seed 000): a node ORs the filters its parents provide and counts the
// parents still without one; at zero the filter is active and flows on to its children.
// A node feeding an output counts one parent that never provides, so outputs stay whole.
//
// Each edge remembers the filter its parent gave. A parent may give a second filter along
// the same edge (say a join that has since received all of its other operand): the edge's
// filter becomes both at once (their AND, sound since the parent needs only rows passing
// each), the child's OR is rebuilt from its parents' current filters, and when the child's
// filter is active the narrower one flows on down the same way. Rows already delivered stay
// delivered (a node may emit rows that fail its filter); what narrows is what a source not
// yet drained will fetch.
extension Runner {
    func provideFilter(_ filter: Predicate, along edge: Edge) {
        if let given = runtimes[edge.parent].providedToOperand[edge.operand] {
            narrowFilter(given, with: filter, along: edge)
            return
        }
        let outer = providing
        providing = (edge, filter)
        forEachHeuristic(.willProvideFilter) { $0.willProvideFilter(filter, along: edge, run: self) }
        providing = outer
        runtimes[edge.parent].providedToOperand[edge.operand] = filter
        let child = graph.child(at: edge)
        let runtime = runtimes[child]
        guard runtime.remainingParents > 0 else {
            violated("node \(child) was given a filter along \(edge) with no parent left waiting")
            return
        }
        runtime.orIntoFilter(filter)
        runtime.remainingParents -= 1
        counters.filtersProvided += 1
        if runtime.remainingParents == 0 { activateFilter(child) }
    }

    func activateFilter(_ id: NodeID) {
        let runtime = runtimes[id]
        guard !runtime.filterActive, runtime.filter != nil else { return }
        runtime.filterActive = true
        counters.filtersActivated += 1
        forEachHeuristic(.filterActivated) { $0.filterActivated(id, run: self) }
        passFilterToChildren(id)
    }

    /// Gives each child the node's active filter, rewritten for it; an edge that already
    /// has a filter (a select's own predicate, a join filter) keeps it.
    private func passFilterToChildren(_ id: NodeID) {
        guard let filter = runtimes[id].filter else { return }
        for operand in graph[id].children.indices {
            let edge = Edge(parent: id, operand: operand)
            if hasProvided(along: edge) { continue }
            if let derived = derivedFilter(filter, along: edge) {
                provideFilter(derived, along: edge)
            }
        }
    }

    /// A second filter along an edge that already has `given`. The narrowing then flows
    /// down in one wave, parents before children, so a node shared by many paths (a
    /// self-sharing DAG) is rebuilt once per wave rather than once per path. A heuristic may
    /// copy a subtree as an edge narrows (`willNarrowFilter`); a copy's nodes are new to the
    /// wave's order and have no parent outside it, so they follow in a second pass.
    private func narrowFilter(_ given: Predicate, with filter: Predicate, along edge: Edge) {
        guard let first = narrowEdge(given, filter, edge) else { return }
        narrowingWave(from: first)
    }

    /// Rebuilds `first`'s filter from its parents' current filters and, where that narrows
    /// an active filter, narrows its children's edges in turn (the wave above).
    func narrowingWave(from first: NodeID) {
        var pending: Set<NodeID> = [first]
        while !pending.isEmpty {
            for id in graph.topologicalOrder() where pending.remove(id) != nil {
                let runtime = runtimes[id]
                let current = graph[id].parents.compactMap { runtimes[$0.parent].providedToOperand[$0.operand] }
                guard runtime.rebuildFilter(from: current) else { continue }
                estimates.forget(node: id)
                guard runtime.filterActive, let narrowed = runtime.filter else { continue }
                forEachHeuristic(.filterNarrowed) { $0.filterNarrowed(id, run: self) }
                for operand in graph[id].children.indices {
                    let down = Edge(parent: id, operand: operand)
                    guard let derived = derivedFilter(narrowed, along: down) else { continue }
                    if let old = runtime.providedToOperand[operand] {
                        if let child = narrowEdge(old, derived, down) { pending.insert(child) }
                    } else {
                        provideFilter(derived, along: down)
                    }
                }
            }
        }
    }

    /// Makes the edge's filter `given` AND `filter`; the child (a copy, if a heuristic's
    /// `willNarrowFilter` copied the subtree), or nil when that changes nothing or the child
    /// is complete.
    private func narrowEdge(_ given: Predicate, _ filter: Predicate, _ edge: Edge) -> NodeID? {
        guard !runtimes[graph.child(at: edge)].complete, !given.impliesSyntactically(filter) else { return nil }
        forEachHeuristic(.willNarrowFilter) { $0.willNarrowFilter(filter, along: edge, run: self) }
        runtimes[edge.parent].providedToOperand[edge.operand] = filter.impliesSyntactically(given) ? filter : .all([given, filter])
        counters.filtersNarrowed += 1
        return graph.child(at: edge)
    }

    /// Rewrites a node's filter for one of its children (`Operator.filter(_:forOperandWith:)`).
    func derivedFilter(_ filter: Predicate, along edge: Edge) -> Predicate? {
        switch graph[edge.parent].operation {
        case let .apply(op):
            return op.filter(filter, forOperandWith: graph[graph.child(at: edge)].scheme)
        case .source, .dead:
            return nil
        }
    }
}
