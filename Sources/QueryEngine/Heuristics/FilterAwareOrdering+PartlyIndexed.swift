import Relational

/// `filter-aware-ordering`'s size for a source whose active filter an index answers only
/// in part: the index counts the rows its own attribute's values touch (an upper bound),
/// while the rest of the filter, on attributes no index reads, may keep far fewer of them.
/// Such a source is sized by the smaller of that count and the filter's matches in the
/// table's statistics sample (`SampledEstimates.sample`), the sample `sampled-estimate-
/// ordering` and this heuristic already test a wholly unindexed filter on.
///
/// The hunt's case (issue 15, fifteenth round, seed 29 case 613): `shared minus shared`,
/// `shared = t1 join t2 join t3`; `t3`'s two rows gave `t2` (150 rows, indexed on `c`) the
/// key filter `(b, c) in {(null, 48), (53, null)}`. The index counted every row with `c`
/// null or 48, 27 of them, above `t1`'s 19 (which that filter does not reach), so `t1` was
/// drained first and read whole (22 rows); the filter matches 2 rows of `t2`, which,
/// drained first, key `t1` to one row (5 rows).
///
/// Only a filter that leaves the fetch something to test is sampled: one that reads an
/// attribute the table has no index on, an IN-set of tuples (fetched by one attribute's
/// index, `SampledEstimates.tupleSample`), or an AND with conjuncts beside the one the most
/// selective index fetches by (`SampledEstimates.testedAfterTheFetch`; issue 15,
/// twenty-seventh round, held-out seed 213 case 137: `t0` under `e == null and a == null`,
/// indexed on both, 12 and 14 rows by its indexes and none by both, kept its count of 12 against
/// a partly indexed `t3` sampled at 7 and was drained second: 5 rows against 0). One run's
/// answers are kept per node with the filter they answer (a filter only narrows, a handful
/// of times a run), so a pick costs a lookup after the first.
final class PartlyIndexedSamples {
    private var known = PerNodeFilterMemo()

    /// The source's sampled size in hundredths of a row when its active filter reads an
    /// unindexed attribute and an index narrowed its estimate below the whole table; nil
    /// otherwise (the caller keeps its own size).
    func hundredths(_ node: NodeID, estimate: Int, _ run: any RunnerContext) -> Int? {
        // Cheapest refusals first (asked for every source `size` meets): a filter the indexes
        // read whole, the common case, needs no estimate comparison or cache lookup.
        guard estimate > 0 else { return nil }
        let state = run.filterState(of: node)
        guard state.isActive, let filter = state.filter, !filter.isConstantTrue else { return nil }
        let nodes = run.graph.nodes
        guard case let .source(source) = nodes[node].operation, let table = source as? MemoryTable,
            let whole = nodes[node].approximateCount, estimate < whole
        else { return nil }
        return hundredths(node, table: table, filter: filter, estimate: estimate)
    }

    /// `hundredths(_:estimate:_:)` for a caller that has made its checks (`filter` the
    /// source's active filter, not `true`; `table` its memory table, `estimate` positive and
    /// below its whole count): whether the filter leaves the fetch something to test, then
    /// the memo. An AND is asked through the memo (its check counts index entries per
    /// conjunct); the shapes a run asks most are refused in place.
    func hundredths(_ node: NodeID, table: MemoryTable, filter: Predicate, estimate: Int) -> Int? {
        let unindexed = Self.readsAnUnindexedAttribute(filter, table.indexedAttributes)
        guard case .and = filter else {
            return unindexed || SampledEstimates.isTupleSet(filter) ? answer(node, table, filter, estimate) : nil
        }
        return answer(node, table, filter, estimate, checking: !unindexed)
    }

    private func answer(_ node: NodeID, _ table: MemoryTable, _ filter: Predicate, _ estimate: Int,
                        checking: Bool = false) -> Int? {
        known.answer(node, filter) {
            if checking, SampledEstimates.testedAfterTheFetch(table, filter).isEmpty { return nil }
            guard let sampled = SampledEstimates.sample(table, filter) else { return nil }
            let (scaled, overflow) = estimate.multipliedReportingOverflow(by: 100)
            return overflow ? sampled : min(sampled, scaled)
        }
    }

    /// Forgets every answer, keeping the storage (an instance reused for another run).
    func removeAll() { known.removeAll() }

    /// Whether `filter` reads an attribute outside `indexed`; the shapes a run asks most (a
    /// comparison with a value, a join's IN-set key filter) without collecting a set.
    static func readsAnUnindexedAttribute(_ filter: Predicate, _ indexed: [Attribute]) -> Bool {
        switch filter {
        case let .comparison(.attribute(a), _, .value), let .comparison(.value, _, .attribute(a)):
            return !indexed.contains(a)
        case let .inSet(attributes, _):
            return attributes.contains { !indexed.contains($0) }
        default:
            return filter.attributes.contains { !indexed.contains($0) }
        }
    }
}
