import Relational

/// Source estimates for one run, keyed by source object and filter. Sources do not change
/// while a query runs, so an estimate once asked holds for the whole run: choosing among n
/// initiators, again after every drain, and copies of a source (the same object) under the
/// same filter all reuse it. For SQLite sources an estimate may be a query, so asking once
/// per (source, filter) is what keeps initiator ordering cheap.
struct EstimateCache {
    private struct Key: Hashable {
        let source: ObjectIdentifier
        let filter: Predicate?
    }

    private var entries: [Key: Int?] = [:]
    /// Keeps every source asked alive, so an identifier cannot be reused by another object.
    private var sources: [ObjectIdentifier: any SourceRelation] = [:]

    /// Distinct (source, filter) estimates asked of sources so far.
    var asked: Int { entries.count }

    mutating func estimate(_ source: any SourceRelation, filter: Predicate?) -> Int? {
        let key = Key(source: ObjectIdentifier(source), filter: filter)
        if let known = entries[key] { return known }
        let estimate = source.estimatedCount(filter: filter)
        entries[key] = .some(estimate)
        sources[key.source] = source
        return estimate
    }
}
