import Relational

/// `filter-aware-ordering`'s look-ahead over a join's key values: a join of two sources,
/// one of them a table small enough that its statistics sample is the whole table, neither
/// side drained, delivers at least the rows of the other source its key values match. The
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
/// does not answer exactly (the smaller of the two), under its own active filter AND-ed
/// on. Only a side not yet started is looked ahead from: a drained side's keys are already
/// the other side's filter, which its own size sees (sizing a join by the operand not yet
/// complete was tried and read more rows on more cases than fewer). The answer only raises
/// the pair rule's size.
///
/// An answer is kept per join with what it read: the two tables, their content versions
/// (`MemoryTable.contentVersion`), the key pairs and both active filters. A later ask, in
/// the same run or a prepared query's next one, that finds all of them the same is a lookup,
/// as the estimate cache keeps a table's estimates while its version holds; a prepared
/// query's look-ahead is worked out again only after one of its tables changes.
final class JoinKeyLookahead {
    /// A class, so that reading an entry out of `known` retains one reference instead of
    /// copying its tables, pairs and filters.
    private final class Known {
        let left: MemoryTable, right: MemoryTable
        let versions: (Int, Int)
        let pairs: [JoinPair]
        let filters: (Predicate?, Predicate?)
        let hundredths: Int?

        init(left: MemoryTable, right: MemoryTable, versions: (Int, Int), pairs: [JoinPair],
             filters: (Predicate?, Predicate?), hundredths: Int?) {
            self.left = left
            self.right = right
            self.versions = versions
            self.pairs = pairs
            self.filters = filters
            self.hundredths = hundredths
        }

        func holds(_ left: MemoryTable, _ right: MemoryTable, _ pairs: [JoinPair], _ filters: (Predicate?, Predicate?)) -> Bool {
            self.left === left && self.right === right
                && versions == (left.contentVersion, right.contentVersion)
                && self.pairs == pairs && self.filters.0 == filters.0 && self.filters.1 == filters.1
        }
    }

    private var known: [Known?] = []

    /// The rows a two-source join is looked ahead to deliver, in hundredths; nil when
    /// neither side can be looked ahead from. Asked for every join `size` meets, so the
    /// cheapest refusals come first and a repeated ask with the same filters is a lookup.
    /// `nodes`: the run's graph's nodes (the caller's, not asked of the runner again).
    func hundredths(_ join: NodeID, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int? {
        // Only a join its one parent can filter: one that feeds an output or another parent
        // (a difference's right operand above its own left one) never gets the sibling's key
        // filter active, so a sibling drained first for it saves nothing there (seed 18 case
        // 272: `shared = t2 join t0` an output, joined with `t3`; 8 rows against 11).
        guard nodes[join].parents.count == 1, nodes[join].outputs.isEmpty, nodes[join].children.count == 2 else { return nil }
        let left = nodes[join].children[0], right = nodes[join].children[1]
        // A started side first: the cheapest refusal, before the sources are bound and cast.
        guard left != right, !run.hasStarted(left), !run.hasStarted(right),
            case let .source(leftSource) = nodes[left].operation, let leftTable = leftSource as? MemoryTable,
            case let .source(rightSource) = nodes[right].operation, let rightTable = rightSource as? MemoryTable,
            Self.isSmall(leftTable) || Self.isSmall(rightTable),
            case let .apply(.join(pairs)) = nodes[join].operation, !pairs.isEmpty
        else { return nil }
        let leftState = run.filterState(of: left), rightState = run.filterState(of: right)
        let filters = (leftState.isActive ? leftState.filter : nil, rightState.isActive ? rightState.filter : nil)
        if join < known.count, let entry = known[join], entry.holds(leftTable, rightTable, pairs, filters) {
            return entry.hundredths
        }
        var found: Int?
        let tables = [leftTable, rightTable]
        for side in 0..<2 where Self.isSmall(tables[side]) {
            guard let rows = Self.lookahead(from: tables[side], to: tables[1 - side], side: side, pairs,
                                            [filters.0, filters.1])
            else { continue }
            found = max(found ?? 0, rows)
        }
        if join >= known.count { known += repeatElement(nil, count: join + 1 - known.count) }
        known[join] = Known(left: leftTable, right: rightTable, versions: (leftTable.contentVersion, rightTable.contentVersion),
                            pairs: pairs, filters: filters, hundredths: found)
        return found
    }

    /// Whether `table` is small enough for its statistics sample to be all of it, so that its
    /// key values are known without reading it.
    private static func isSmall(_ table: MemoryTable) -> Bool {
        table.count <= MemoryTable.statisticsSampleLimit
    }

    /// The rows of `largeTable` matching the key values of `smallTable`'s sample, the join's
    /// operand `side`.
    private static func lookahead(from smallTable: MemoryTable, to largeTable: MemoryTable, side: Int,
                                  _ pairs: [JoinPair], _ filters: [Predicate?]) -> Int? {
        let smallAttributes = pairs.map { side == 0 ? $0.left : $0.right }
        let largeAttributes = pairs.map { side == 0 ? $0.right : $0.left }
        let columns = smallAttributes.compactMap { smallTable.scheme.index(of: $0) }
        guard columns.count == smallAttributes.count,
            largeAttributes.allSatisfy({ largeTable.scheme.index(of: $0) != nil })
        else { return nil }
        var filter: CompiledPredicate?
        if let own = filters[side], !own.isConstantTrue {
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
