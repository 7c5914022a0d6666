import Relational

// A source's filter is often an OR of filters from different parents, each on its own
// attribute (`parent_id ∈ {…}` from one join, `id ∈ {…}` from another). A source whose
// indexes answer each disjunct but not the OR would scan for it; the runner then fetches
// disjunct by disjunct instead and delivers each row once.
extension Runner {
    /// The disjuncts to fetch one by one, or nil when the source fetches by the whole filter
    /// (or cannot use an index for some disjunct, so a scan is needed anyway).
    func selectiveDisjuncts(_ filter: Predicate, of source: any SourceRelation) -> [Predicate]? {
        guard case let .or(parts) = filter, parts.count > 1, !source.canFetchSelectively(filter),
            parts.allSatisfy({ source.canFetchSelectively($0) })
        else { return nil }
        return parts
    }

    /// Drains a source one disjunct at a time; every row a fetch returns counts as read,
    /// and a row an earlier disjunct already delivered is not emitted again.
    func drainByDisjuncts(_ id: NodeID, _ source: any SourceRelation, _ parts: [Predicate]) throws {
        var delivered = Set<Row>()
        for part in parts {
            counters.filteredFetches += 1
            let cursor = try source.makeCursor(filter: part)
            while true {
                let batch = try cursor.next(maxRows: batchSize)
                if batch.isEmpty { break }
                counters.sourceRowsRead += batch.count
                let fresh = batch.filter { delivered.insert($0).inserted }
                if !fresh.isEmpty { emit(id, fresh) }
            }
        }
    }
}
