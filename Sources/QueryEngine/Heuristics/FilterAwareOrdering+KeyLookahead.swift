import Relational

/// `filter-aware-ordering`'s look-ahead over a join's key values: a join of two sources,
/// one of them a table small enough that its statistics sample is the whole table, with a
/// null among its key values, neither side drained, delivers at least the rows of the other
/// source its key values match. The
/// pair rule sizes a join by its smaller operand (which will filter the other), as if every
/// key matched one row; a key that matches many (a null, an ordinary value here: `null ==
/// null`) makes the join far larger than its small side, and a join sized by the small side
/// then defers a sibling whose keys would have left the large source unread.
///
/// The hunt's cases (issue 15, sixteenth round): seed 42 case 1156, `shared = t2 join [d =
/// e] (t0 join t1)`, `t1` two rows (an output) whose `b` keys are `{null, 2}`, matching 30
/// of `t0`'s 300 rows; sized at `t1`'s 2 rows, the inner join deferred `t2` (5 rows), and
/// draining `t1` first read those 30 rows (32 against 7: drained first, `t2`'s keys match
/// no row of `t1`, so `t0` gets `false`). Seed 49 case 1406, `t2 join (t0 join t1)`: `t1`'s
/// one row has a null `c` that keys 25 of `t0`'s 299 rows (26 against 3). Seed 40 case 701
/// has the same form (`t0`'s two null keys, 14 of `t3`'s 145 rows; 16 against 5).
///
/// The small side's keys are its sample's rows under its active filter (no row of the table
/// is read for them, as none is for the sample itself); the matches are counted by the
/// other table's index on a key attribute when it has one (exact for a one-attribute key and
/// no other filter, otherwise an upper bound) and by its statistics sample when the index
/// does not answer exactly (the smaller of the two), under its own active filter AND-ed on. Only a side not yet started is looked ahead from: a drained side's keys are already
/// the other side's filter, which its own size sees (sizing a join by the operand not yet
/// complete was tried and read more rows on more cases than fewer). The answer only raises
/// the pair rule's size. One run's answers are kept per join, with the filters they read.
final class JoinKeyLookahead {
    private var known: [(left: Predicate?, right: Predicate?, hundredths: Int?)?] = []

    /// Forgets the last run's answers: they read the tables' contents, which may change
    /// before a prepared query's next run.
    func removeAll() {
        known.emptyKeepingCapacity()
    }

    /// The rows a two-source join is looked ahead to deliver, in hundredths; nil when
    /// neither side can be looked ahead from. Asked for every join `size` meets, so the
    /// cheapest refusals come first and a repeated ask with the same filters is a lookup.
    func hundredths(_ join: NodeID, _ run: any RunnerContext) -> Int? {
        let nodes = run.graph.nodes
        // Only a join its one parent can filter: one that feeds an output or another parent
        // (a difference's right operand above its own left one) never gets the sibling's key
        // filter active, so a sibling drained first for it saves nothing there (seed 18 case
        // 272: `shared = t2 join t0` an output, joined with `t3`; 8 rows against 11).
        guard nodes[join].parents.count == 1, nodes[join].outputs.isEmpty, nodes[join].children.count == 2 else { return nil }
        let left = nodes[join].children[0], right = nodes[join].children[1]
        guard left != right, case .source = nodes[left].operation, case .source = nodes[right].operation,
            !run.hasStarted(left), !run.hasStarted(right),
            case let .apply(.join(pairs)) = nodes[join].operation, !pairs.isEmpty,
            Self.hasANullKey(left, side: 0, pairs, nodes) || Self.hasANullKey(right, side: 1, pairs, nodes)
        else { return nil }
        let leftState = run.filterState(of: left), rightState = run.filterState(of: right)
        let leftFilter = leftState.isActive ? leftState.filter : nil
        let rightFilter = rightState.isActive ? rightState.filter : nil
        if join < known.count, let entry = known[join], entry.left == leftFilter, entry.right == rightFilter {
            return entry.hundredths
        }
        var found: Int?
        let filters = [leftFilter, rightFilter]
        for side in 0..<2 {
            guard let rows = Self.lookahead(from: side, of: join, pairs, nodes, filters) else { continue }
            found = max(found ?? 0, rows)
        }
        if join >= known.count { known += repeatElement(nil, count: join + 1 - known.count) }
        known[join] = (leftFilter, rightFilter, found)
        return found
    }

    /// Whether `source` is a table small enough for its sample to be all of it and a row
    /// there has a null key value. Only such a side is looked ahead from: a null is the value
    /// a key column repeats most in practice (no uniqueness holds for it), and looking ahead
    /// from every small side (a one-row selection keying a 100,000-row table by a unique
    /// id, the seed query) cost about 7,000 instructions a run for a join whose size it
    /// never changed.
    private static func hasANullKey(_ source: NodeID, side: Int, _ pairs: [JoinPair], _ nodes: [PlanNode]) -> Bool {
        guard case let .source(relation) = nodes[source].operation, let table = relation as? MemoryTable,
            table.count <= MemoryTable.statisticsSampleLimit
        else { return false }
        let sample = table.statisticsSample()
        for pair in pairs {
            guard let column = table.scheme.index(of: side == 0 ? pair.left : pair.right) else { return false }
            for row in sample where row.values[column].isNull { return true }
        }
        return false
    }

    /// The rows of the other operand matching the key values of operand `side`'s sample.
    private static func lookahead(from side: Int, of join: NodeID, _ pairs: [JoinPair], _ nodes: [PlanNode],
                                  _ filters: [Predicate?]) -> Int? {
        let children = nodes[join].children
        guard hasANullKey(children[side], side: side, pairs, nodes),
            case let .source(small) = nodes[children[side]].operation, let smallTable = small as? MemoryTable,
            case let .source(large) = nodes[children[1 - side]].operation, let largeTable = large as? MemoryTable
        else { return nil }
        let smallAttributes = pairs.map { side == 0 ? $0.left : $0.right }
        let largeAttributes = pairs.map { side == 0 ? $0.right : $0.left }
        let columns = smallAttributes.compactMap { smallTable.scheme.index(of: $0) }
        guard columns.count == smallAttributes.count,
            largeAttributes.allSatisfy({ largeTable.scheme.index(of: $0) != nil })
        else { return nil }
        var filter: CompiledPredicate?
        if let own = filters[side], own != .true {
            guard let compiled = try? CompiledPredicate(own, scheme: smallTable.scheme) else { return nil }
            filter = compiled
        }
        var keys: Set<Row> = []
        for row in smallTable.statisticsSample() where filter?.matches(row) ?? true {
            keys.insert(Row(columns.map { row.values[$0] }))
        }
        if keys.isEmpty { return 0 }
        let keyFilter = Predicate.inSet(attributes: largeAttributes, keys: keys)
        let combined = filters[1 - side].map { Predicate.all([$0, keyFilter]) } ?? keyFilter
        let whole = largeTable.count
        let indexed = largeTable.estimatedCount(filter: combined) ?? whole
        let (scaled, overflow) = indexed.multipliedReportingOverflow(by: 100)
        guard !overflow else { return nil }
        // The index's count is exact for a key of one indexed attribute and no other filter;
        // otherwise it bounds the matches from above (one attribute of a compound key) and
        // the sample may find fewer (seed 20 case 737: `(d, e) = (62, 2)` matched one of
        // `t1`'s 299 rows, while the index on `d` counted three, above the 2-row sibling).
        guard indexed > 0, !Self.isAnsweredExactly(combined, largeTable.indexedAttributes),
            let sampled = SampledEstimates.sample(largeTable, combined)
        else { return scaled }
        return min(scaled, sampled)
    }

    private static func isAnsweredExactly(_ filter: Predicate, _ indexed: [Attribute]) -> Bool {
        guard case let .inSet(attributes, _) = filter, attributes.count == 1 else { return false }
        return indexed.contains(attributes[0])
    }
}
