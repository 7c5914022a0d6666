import Relational

extension Runner {
    /// Gives `edge.parent` a fresh copy of the subtree at `edge` (seed 000's subtree
    /// copying). The original loses that parent, so it waits on one fewer filter; heuristics
    /// see the copies as newly added nodes. This is the only way the runner's graph grows,
    /// so the global growth budget is enforced here: a copy that does not fit in what is
    /// left is refused whole (nil, graph unchanged).
    ///
    /// A subtree in which any node has started or completed is refused too, whoever asks: its
    /// copy would fetch again rows its original already delivered. (A node can be complete
    /// without having started, when its operands delivered no rows.) Asking for such a copy
    /// is a heuristic's bug, so checked mode fails the run. A heuristic may veto the copy
    /// (`Heuristic.vetoesCopy`): then nothing changes either.
    @discardableResult
    func copySubtree(along edge: Edge) -> NodeID? {
        var vetoed = false
        forEachHeuristic(.vetoesCopy) { if !vetoed { vetoed = $0.vetoesCopy(along: edge, run: self) } }
        if vetoed { return nil }
        let root = graph.child(at: edge)
        guard let members = graph.subtree(of: root, upTo: growthBudget.remaining) else {
            counters.copiesRefused += 1
            return nil
        }
        if let busy = members.first(where: { runtimes[$0].started || runtimes[$0].complete }) {
            counters.startedCopiesRefused += 1
            if checks != nil {
                violated("copy requested along \(edge) of a subtree whose node \(busy) (\(graph[busy].operation.label)) "
                    + (runtimes[busy].started ? "has started" : "is complete"))
            }
            return nil
        }
        guard growthBudget.take(members.count) else {
            counters.copiesRefused += 1
            return nil
        }
        // Copies are numbered from `firstCopy` on; each knows its original (`copiedFrom`), so
        // finding a child's copy is a search of the few made (no dictionary per copy).
        let firstCopy = graph.nodes.count
        func copy(of old: NodeID) -> NodeID? {
            (firstCopy..<graph.nodes.count).first { graph.nodes[$0].copiedFrom == old }
        }
        for old in graph.topologicalOrder(of: members).reversed() {
            // The original's fields read in place: binding the node copied all of it (its
            // edge lists too) and destroyed the copy, per copied node.
            var node = PlanNode(operation: graph.nodes[old].operation, scheme: graph.nodes[old].scheme)
            node.name = graph.nodes[old].name
            node.approximateCount = graph.nodes[old].approximateCount
            node.copiedFrom = old
            let children = graph.nodes[old].children.compactMap { copy(of: $0) }
            _ = graph.add(node, children: children)
        }
        guard let newRoot = copy(of: root) else { return nil }
        var siblings = graph[edge.parent].children
        siblings[edge.operand] = newRoot
        graph.setChildren(of: edge.parent, to: siblings)
        registerCopies()
        counters.subtreesCopied += 1
        counters.nodesCopied += members.count

        // The original loses a parent. If that parent had not provided yet, the original now
        // waits on one fewer. If it had, the copy takes its filter over (below), and the
        // original, still waiting, keeps only what its remaining parents gave; an active
        // original narrows to them, and the narrowing flows down as any narrowing does (a
        // source not drained then fetches only what its remaining parents need).
        let given = runtimes[edge.parent].providedToOperand[edge.operand]
        let original = runtimes[root]
        if given == nil {
            if original.remainingParents > 0 {
                original.remainingParents -= 1
                if original.remainingParents == 0 { activateFilter(root) }
            } else {
                violated("node \(root) lost parent \(edge.parent) with no parent left waiting")
            }
        } else if !original.filterActive {
            let remaining = graph[root].parents.compactMap { runtimes[$0.parent].providedToOperand[$0.operand] }
            if original.rebuildFilter(from: remaining) { estimates.forget(node: root) }
        }
        validateAfterEdit("copy of the subtree at \(edge)")

        let added = graph.topologicalOrder(of: Array(firstCopy..<graph.nodes.count))
        forEachHeuristic(.nodesAdded) { $0.nodesAdded(added, run: self) }
        if let given { carryFilter(given, to: newRoot) }
        // After the heuristics have seen the copies: the wave calls their hooks.
        if given != nil, original.filterActive, !original.complete { narrowingWave(from: root) }
        return newRoot
    }

    /// A copy made along an edge that had already provided receives that filter, as its
    /// original did; its parent will not provide again (a later filter narrows the edge).
    private func carryFilter(_ given: Predicate, to copy: NodeID) {
        let runtime = runtimes[copy]
        guard runtime.remainingParents > 0 else { return }
        runtime.orIntoFilter(given)
        runtime.remainingParents -= 1
        if runtime.remainingParents == 0 { activateFilter(copy) }
    }
}
