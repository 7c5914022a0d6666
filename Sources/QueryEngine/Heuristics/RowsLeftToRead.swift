import Relational

extension RunnerContext {
    /// What the sources under `node` not yet drained are estimated to deliver under their
    /// current filters (`Int.max` when one cannot be estimated): the most rows a filter
    /// given to `node` now can keep from being read. An IN-set of L keys is built, passed
    /// down, turned into index look-ups and hashed by the filter flow, each about as dear
    /// per key as reading a row, so a key filter of at least as many keys as this costs
    /// more than it can save (`set-operand-filter`, `join-filter-pushdown`).
    /// A search fetched on demand counts every row it may reach (`readableEstimate`), not
    /// its first fetch. Issue 15, held-out seed 570 case 376 at `--rows 300`: `(t0 project
    /// [b, e] closure [b -> e] select (b == 25 or b == 49) intersect t1 rename [c -> b])
    /// select (…)`, `t0` 150 rows indexed on `b`, `t1` 30. `t1` went first, but counted at
    /// its 4-row first fetch the search was left no filter of `t1`'s 30 rows, which hold
    /// neither pinned value and would have emptied it; it read 117 rows (147 against 30).
    public func rowsLeftToRead(below node: NodeID) -> Int {
        let graph = self.graph
        var total = 0
        var seen: Set<NodeID> = [node]
        var pending = [node]
        while let id = pending.popLast() {
            if isComplete(id) { continue }
            if case .source = graph[id].operation {
                guard !hasStarted(id) else { continue }
                guard let estimate = readableEstimate(id) else { return Int.max }
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
