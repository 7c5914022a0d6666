import Relational

// Parental filters (seed 000): a node ORs the filters its parents provide and counts the
// parents still without one; at zero the filter is active and flows on to its children.
// A node feeding an output counts one parent that never provides, so outputs stay whole.
extension Runner {
    func provideFilter(_ filter: Predicate, along edge: Edge) {
        guard !hasProvided(along: edge) else { return }
        forEachHeuristic(.willProvideFilter) { $0.willProvideFilter(filter, along: edge, run: self) }
        runtimes[edge.parent].providedToOperand[edge.operand] = true
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
        guard !runtime.filterActive, let filter = runtime.filter else { return }
        runtime.filterActive = true
        counters.filtersActivated += 1
        for operand in graph[id].children.indices {
            let edge = Edge(parent: id, operand: operand)
            if !hasProvided(along: edge), let derived = derivedFilter(filter, along: edge) {
                provideFilter(derived, along: edge)
            }
        }
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
