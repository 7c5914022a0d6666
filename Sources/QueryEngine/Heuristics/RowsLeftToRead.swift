import Relational

extension RunnerContext {
    /// What the sources under `node` not yet drained are estimated to deliver under their
    /// current filters (`Int.max` when one cannot be estimated): the most rows a filter
    /// given to `node` now can keep from being read. An IN-set of L keys is built, passed
    /// down, turned into index look-ups and hashed by the filter flow, each about as dear
    /// per key as reading a row, so a key filter of at least as many keys as this costs
    /// more than it can save (`set-operand-filter`, `join-filter-pushdown`).
    public func rowsLeftToRead(below node: NodeID) -> Int {
        let graph = self.graph
        var total = 0
        var seen: Set<NodeID> = [node]
        var pending = [node]
        while let id = pending.popLast() {
            if isComplete(id) { continue }
            if case .source = graph[id].operation {
                guard !hasStarted(id) else { continue }
                guard let estimate = estimate(id) else { return Int.max }
                let (sum, overflow) = total.addingReportingOverflow(estimate)
                if overflow { return Int.max }
                total = sum
                continue
            }
            for child in graph[id].children where seen.insert(child).inserted { pending.append(child) }
        }
        return total
    }
}
