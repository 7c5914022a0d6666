import Relational

/// Source estimates for one run, keyed by source object and filter. Sources do not change
/// while a query runs, so an estimate once asked holds for the whole run: choosing among n
/// initiators, again after every drain, and copies of a source (the same object) under the
/// same filter all reuse it. For SQLite sources an estimate may be a query, so asking once
/// per (source, filter) is what keeps initiator ordering cheap.
///
/// A prepared query's next run starts from the last run's cache (`startNextRun`): an
/// estimate of a source that reports an `estimateVersion` (a memory table: it changes with
/// every change of rows) is kept while that version is the same, so a run of an unchanged
/// table is not asked again what the last run asked. Every other estimate is dropped.
struct EstimateCache {
    private struct Key: Hashable {
        let source: ObjectIdentifier
        let filter: Predicate?
    }

    /// Every (source, filter) asked, in order. A run asks a handful, so a search comparing
    /// filters costs less than hashing them (an IN-set hashes every key); past
    /// `linearLimit` entries a dictionary indexes them.
    /// Each entry keeps its source alive, so an identifier cannot be reused by another object.
    /// `version`: the source's `estimateVersion` when asked; `run`: the last run that asked.
    private var entries: [(key: Key, estimate: Int?, source: any SourceRelation, version: Int?, run: Int)] = []
    private var index: [Key: Int] = [:]
    private static let linearLimit = 16
    /// Per node, the last answer and whether its filter was active: a node's active filter
    /// changes only when it narrows (`forget`), so this saves
    /// hashing the filter, which for an IN-set means hashing every key, on every choice.
    private var byNode: [(active: Bool, estimate: Int?)?] = []
    /// The current run's number (since this cache was made) and how many entries it asked.
    private var run = 0
    private var askedThisRun = 0
    /// At most this many entries are carried into the next run (a run whose filters differ
    /// from the last one's, a join's keys, would otherwise add entries run after run).
    private static let keptLimit = 8

    /// `nodes`: how many nodes the run starts with (copies made later extend the memo).
    init(nodes: Int = 0) {
        byNode.reserveCapacity(nodes)
    }

    /// Empty again for the next run of the same prepared query, keeping its storage: a run
    /// asks a handful of estimates, and growing the two lists from nothing was about 2k
    /// instructions of the seed query's run (README "Per-run fixed cost, step 6").
    mutating func removeAllKeepingCapacity() {
        entries.emptyKeepingCapacity()
        if !index.isEmpty { index.removeAll(keepingCapacity: true) }
        byNode.emptyKeepingCapacity()
        askedThisRun = 0
    }

    /// Ready for the next run of the same prepared query: the per-node memo is emptied (a
    /// run's filters are its own); of the (source, filter) estimates, those of sources
    /// whose `estimateVersion` is unchanged are kept, unless there are many (then none is).
    mutating func startNextRun() {
        guard index.isEmpty, entries.count <= Self.keptLimit else {
            removeAllKeepingCapacity()
            return
        }
        var kept = 0
        for i in entries.indices {
            guard let version = entries[i].version, entries[i].source.estimateVersion == version else { continue }
            if kept != i { entries[kept] = entries[i] }
            kept += 1
        }
        while entries.count > kept { entries.removeLast() }
        byNode.emptyKeepingCapacity()
        run &+= 1
        askedThisRun = 0
    }

    /// Distinct (source, filter) estimates asked of sources so far in this run.
    var asked: Int { askedThisRun }

    /// The node's last answer, if its filter's activity is the same (see `byNode`): asked
    /// before anything else, as a memo hit needs neither the source nor its filter.
    func memoized(node: Int, active: Bool) -> Int?? {
        guard node < byNode.count, let memo = byNode[node], memo.active == active else { return nil }
        return .some(memo.estimate)
    }

    mutating func estimate(node: Int, _ source: any SourceRelation, activeFilter: Predicate?) -> Int? {
        let active = activeFilter != nil
        if let memo = memoized(node: node, active: active) { return memo }
        let estimate = estimate(source, filter: activeFilter)
        if node >= byNode.count { byNode += repeatElement(nil, count: node + 1 - byNode.count) }
        byNode[node] = (active, estimate)
        return estimate
    }

    /// A node's filter narrowed: its next estimate is asked under the new one.
    mutating func forget(node: Int) {
        if node < byNode.count { byNode[node] = nil }
    }

    mutating func estimate(_ source: any SourceRelation, filter: Predicate?) -> Int? {
        let key = Key(source: ObjectIdentifier(source), filter: filter)
        if let known = position(of: key) {
            // Kept from an earlier run: counted as asked once in this one, as when asked anew.
            if entries[known].run != run {
                entries[known].run = run
                askedThisRun += 1
            }
            return entries[known].estimate
        }
        let version = source.estimateVersion
        let estimate = source.estimatedCount(filter: filter)
        entries.append((key, estimate, source, version, run))
        askedThisRun += 1
        if entries.count > Self.linearLimit {
            if index.isEmpty {
                for (i, entry) in entries.enumerated() { index[entry.key] = i }
            } else {
                index[key] = entries.count - 1
            }
        }
        return estimate
    }

    private func position(of key: Key) -> Int? {
        if !index.isEmpty { return index[key] }
        return entries.firstIndex { $0.key.source == key.source && $0.key.filter == key.filter }
    }
}
