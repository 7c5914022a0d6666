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
/// on. The other side must not have started. The small side may be drained: its keys are
/// then the other side's filter, but the pair rule sizes the join by its smallest operand,
/// the drained side's delivered rows, so without the look-ahead the raise would be lost as
/// soon as the small side is drained (held-out seed 110 case 138, `(t2 select (d > 46.0)
/// intersect (t1 join t3) rename […]) project [d]`: `t3`'s five keys, null among them,
/// match 41 of `t1`'s 299 rows, unindexed on the key; looked ahead at 60 rows, the join
/// deferred nothing, but once `t3` was drained it was sized at its 5 rows, `t2`'s side
/// (8 rows) was deferred behind it and `t1` read: 46 rows against 8). Sizing every join by
/// its operand not yet complete was tried and read more rows on more cases than fewer; this
/// asks only a two-source join whose drained side is small. The answer only raises the
/// pair rule's size.
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
        let sides: (Bool, Bool)
        let hundredths: Int?

        init(left: MemoryTable, right: MemoryTable, versions: (Int, Int), pairs: [JoinPair],
             filters: (Predicate?, Predicate?), sides: (Bool, Bool), hundredths: Int?) {
            self.left = left
            self.right = right
            self.versions = versions
            self.pairs = pairs
            self.filters = filters
            self.sides = sides
            self.hundredths = hundredths
        }

        func holds(_ left: MemoryTable, _ right: MemoryTable, _ pairs: [JoinPair], _ filters: (Predicate?, Predicate?),
                   _ sides: (Bool, Bool)) -> Bool {
            self.left === left && self.right === right
                && versions == (left.contentVersion, right.contentVersion)
                && self.pairs == pairs && self.filters.0 == filters.0 && self.filters.1 == filters.1
                && self.sides == sides
        }
    }

    /// Per join, the answers for its last few states (a run asks a join before and after
    /// its small side is drained, with other filters: one entry each, so that a prepared
    /// query's next run finds every one again).
    private var known: [[Known]] = []
    /// `matched(at:…)`'s answers, per node, the key table on the left.
    private var knownMatched: [[Known]] = []
    private static let statesKept = 4

    /// The rows a two-source join is looked ahead to deliver, in hundredths; nil when
    /// neither side can be looked ahead from. Asked for every join `size` meets, so the
    /// cheapest refusals come first and a repeated ask with the same filters is a lookup.
    /// `nodes`: the run's graph's nodes (the caller's, not asked of the runner again).
    func hundredths(_ join: NodeID, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int? {
        // Only a join its parents can filter (`parentsCanFilter`): one that feeds an output
        // never gets the sibling's key filter active, so a sibling drained first for it saves
        // nothing there (seed 18 case 272: `shared = t2 join t0` an output, joined with `t3`;
        // 8 rows against 11).
        guard nodes[join].outputs.isEmpty, nodes[join].children.count == 2,
            Self.parentsCanFilter(nodes[join].parents, nodes)
        else { return nil }
        let left = nodes[join].children[0], right = nodes[join].children[1]
        let sourceSides = (nodes[left].operation.isSource, nodes[right].operation.isSource)
        if sourceSides.0 != sourceSides.1 {
            let sourceSide = sourceSides.0 ? 0 : 1
            return derivedHundredths(join, tableSide: sourceSide, nodes, run)
                ?? chainedHundredths(join, keySide: sourceSide, nodes, run)
        }
        // Started sides first: the cheapest refusal, before the sources are bound and cast.
        // A side is looked ahead from when the other has not started and it has not either,
        // or has been drained.
        let started = (run.hasStarted(left), run.hasStarted(right))
        let sides = (!started.1 && (!started.0 || run.isComplete(left)), !started.0 && (!started.1 || run.isComplete(right)))
        guard left != right, sides.0 || sides.1,
            case let .source(leftSource) = nodes[left].operation, let leftTable = leftSource as? MemoryTable,
            case let .source(rightSource) = nodes[right].operation, let rightTable = rightSource as? MemoryTable,
            let pairs = Self.keyPairs(of: join, nodes)
        else { return nil }
        let leftState = run.filterState(of: left), rightState = run.filterState(of: right)
        let filters = (leftState.isActive ? leftState.filter : nil, rightState.isActive ? rightState.filter : nil)
        // A large side is looked ahead from only under a filter that may pin its keys.
        guard Self.isSmall(leftTable) || Self.isSmall(rightTable) || filters.0 != nil || filters.1 != nil else { return nil }
        if join < known.count,
            let entry = known[join].first(where: { $0.holds(leftTable, rightTable, pairs, filters, sides) }) {
            return entry.hundredths
        }
        var found: Int?
        let tables = [leftTable, rightTable]
        let eligible = [sides.0, sides.1]
        for side in 0..<2 where eligible[side] {
            let keys = Self.isSmall(tables[side]) ? Self.sampledKeys(of: tables[side], side: side, pairs, [filters.0, filters.1][side])
                : Self.pinnedKeys(side: side, pairs, [filters.0, filters.1][side])
            guard let keys, let rows = Self.lookahead(keys, to: tables[1 - side], side: side, pairs, [filters.0, filters.1])
            else { continue }
            found = max(found ?? 0, rows)
        }
        if join >= known.count { known += repeatElement([], count: join + 1 - known.count) }
        if known[join].count >= Self.statesKept { known[join].removeFirst() }
        known[join].append(Known(left: leftTable, right: rightTable, versions: (leftTable.contentVersion, rightTable.contentVersion),
                            pairs: pairs, filters: filters, sides: sides, hundredths: found))
        return found
    }

    /// The attribute pairs `node` matches its operands' rows on: a join's pairs, or for an
    /// intersection every attribute with itself (an intersection matches whole rows, and its
    /// one-row side's keys fetch the other side's rows as a join's do). Held-out hunt seed
    /// 730 case 313 at `--rows 300`: `t3 join (t1 rename [d -> b, e -> d] project [a]
    /// intersect t0)`, `t0` one row whose null `a` matches 19 of `t1`'s 150 rows (indexed on
    /// `a`). Sized at `t0`'s one row, the intersection kept `t3` (two rows, whose keys match
    /// nothing) waiting, and those 19 rows were read (20 against 3).
    static func keyPairs(of node: NodeID, _ nodes: [PlanNode]) -> [JoinPair]? {
        switch nodes[node].operation {
        case let .apply(.join(pairs)): return pairs.isEmpty ? nil : pairs
        case .apply(.intersection):
            let attributes = nodes[node].scheme.attributes
            return attributes.isEmpty ? nil : attributes.map { JoinPair($0, $0) }
        default: return nil
        }
    }

    /// `hundredths` for a join of a source table and an operator whose key values all come
    /// from a small table below it (`keyTable`): the rows of the source table those values
    /// match. The operator's keys are among the small table's, so this bounds the join from
    /// above where the two-source look-ahead is exact; taken, as that one is, only where it
    /// raises the size by the smaller operand. Issue 15, held-out seed 289 case 1196 at the default rows: `t1 join [b]
    /// ((t0 intersect t1 rename […] union t0) join t0)` under `… join [a = a, b = d] t2`,
    /// `t0` two rows whose `b` keys (`1`, null) match 86 of `t1`'s 947. Sized by its smaller
    /// operand (`t0`'s join, 2 rows) the left side looked smaller than `t2`'s 5 rows, so `t2`
    /// waited, `t0` and then those 86 rows of `t1` were read, where `t2`'s keys (text)
    /// match nothing of `t0` and leave `t1` unread (89 rows against 7). Only a source not yet
    /// started is looked ahead into.
    private func derivedHundredths(_ join: NodeID, tableSide: Int, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int? {
        let children = nodes[join].children
        let tableNode = children[tableSide], other = children[1 - tableSide]
        guard !run.hasStarted(tableNode), case let .source(source) = nodes[tableNode].operation,
            let table = source as? MemoryTable, let pairs = Self.keyPairs(of: join, nodes)
        else { return nil }
        var budget = 16
        guard let keys = Self.keyTable(of: other, pairs.map { tableSide == 0 ? $0.right : $0.left }, nodes, &budget),
            keys.source != tableNode
        else { return nil }
        let keyState = run.filterState(of: keys.source), tableState = run.filterState(of: tableNode)
        let mapped = zip(keys.attributes, pairs).map { JoinPair($0, tableSide == 0 ? $1.left : $1.right) }
        return matched(at: join, in: table, filter: tableState.isActive ? tableState.filter : nil, by: keys.table,
                       keyFilter: keyState.isActive ? keyState.filter : nil, mapped)
    }

    /// `hundredths` for a join of a small source table (`keySide`) and a chain of selects,
    /// projects and renames over a source table: the rows of that table the small one's keys
    /// match, under the names the renames give back. The two-source look-ahead, through the
    /// chain. Issue 15, held-out seed 584 case 1026 at `--rows 300`: `t0 rename [a -> f, d ->
    /// g, e -> c] join t1 join [c = c, g = a] t3`, `t1` one row whose null `c` keys 18 of
    /// `t0`'s 150 rows (indexed on `e`), `t3` two rows. Sized by `t1`'s one row, the inner
    /// join went before `t3` and read those 18 rows; drained first, `t3`'s keys leave `t0`
    /// nothing (19 rows against 2).
    private func chainedHundredths(_ join: NodeID, keySide: Int, _ nodes: [PlanNode], _ run: any RunnerContext) -> Int? {
        let children = nodes[join].children
        let keyNode = children[keySide]
        guard !run.hasStarted(keyNode) || run.isComplete(keyNode), case let .source(keySource) = nodes[keyNode].operation,
            let keyTable = keySource as? MemoryTable, Self.isSmall(keyTable),
            let pairs = Self.keyPairs(of: join, nodes)
        else { return nil }
        var names = pairs.map { keySide == 0 ? $0.right : $0.left }
        var id = children[1 - keySide]
        for _ in 0..<16 {
            guard nodes[id].parents.count == 1 else { return nil }
            switch nodes[id].operation {
            case .source:
                guard !run.hasStarted(id), case let .source(source) = nodes[id].operation, let table = source as? MemoryTable
                else { return nil }
                let keyState = run.filterState(of: keyNode), tableState = run.filterState(of: id)
                let mapped = zip(pairs, names).map { JoinPair(keySide == 0 ? $0.left : $0.right, $1) }
                return matched(at: join, in: table, filter: tableState.isActive ? tableState.filter : nil, by: keyTable,
                               keyFilter: keyState.isActive ? keyState.filter : nil, mapped)
            case let .apply(.rename(mapping)):
                let back = Dictionary(mapping.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
                names = names.map { back[$0] ?? $0 }
            case .apply(.select), .apply(.project):
                break
            default:
                return nil
            }
            id = nodes[id].children[0]
        }
        return nil
    }

    /// The small memory table below `node` whose column values bound the values of
    /// `attributes` in `node`'s rows, and its names for them: through selects, projects,
    /// renames, a difference's left operand, and the operand of a join or intersection that
    /// holds them all (each output row takes them from a row of it). Nil through a union or
    /// a closure, or past `budget` nodes.
    static func keyTable(of node: NodeID, _ attributes: [Attribute], _ nodes: [PlanNode], _ budget: inout Int)
        -> (source: NodeID, table: MemoryTable, attributes: [Attribute])? {
        budget -= 1
        guard budget > 0 else { return nil }
        let children = nodes[node].children
        switch nodes[node].operation {
        case let .source(source):
            guard let table = source as? MemoryTable, isSmall(table), attributes.allSatisfy({ table.scheme.contains($0) })
            else { return nil }
            return (node, table, attributes)
        case .apply(.select), .apply(.project), .apply(.difference):
            return keyTable(of: children[0], attributes, nodes, &budget)
        case let .apply(.rename(mapping)):
            let back = Dictionary(mapping.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
            return keyTable(of: children[0], attributes.map { back[$0] ?? $0 }, nodes, &budget)
        case .apply(.join), .apply(.intersection):
            for child in children where attributes.allSatisfy({ nodes[child].scheme.contains($0) }) {
                if let found = keyTable(of: child, attributes, nodes, &budget) { return found }
            }
            return nil
        case .apply(.union), .apply(.closure), .dead:
            return nil
        }
    }

    /// The rows of `table` under `filter` that the rows of `keyTable` (a small table, its
    /// sample all of it) under `keyFilter` match on `pairs` (`keyTable`'s attribute on the
    /// left), in hundredths; nil when `keyTable` is not small or an attribute is missing.
    /// `isKeyedBySmallerSibling`'s look-ahead, for a source that reaches its join or
    /// intersection through selects and projects. Kept per `node` (the join or
    /// intersection) as `hundredths` keeps its answers, in `knownMatched`.
    func matched(at node: NodeID, in table: MemoryTable, filter: Predicate?, by keyTable: MemoryTable,
                 keyFilter: Predicate?, _ pairs: [JoinPair]) -> Int? {
        let filters = (keyFilter, filter)
        if node < knownMatched.count,
            let entry = knownMatched[node].first(where: { $0.holds(keyTable, table, pairs, filters, (true, false)) }) {
            return entry.hundredths
        }
        let found = Self.matched(in: table, filter: filter, by: keyTable, keyFilter: keyFilter, pairs)
        if node >= knownMatched.count { knownMatched += repeatElement([], count: node + 1 - knownMatched.count) }
        if knownMatched[node].count >= Self.statesKept { knownMatched[node].removeFirst() }
        knownMatched[node].append(Known(left: keyTable, right: table, versions: (keyTable.contentVersion, table.contentVersion),
                                        pairs: pairs, filters: filters, sides: (true, false), hundredths: found))
        return found
    }

    /// `matched(at:…)` worked out, not kept.
    static func matched(in table: MemoryTable, filter: Predicate?, by keyTable: MemoryTable, keyFilter: Predicate?,
                        _ pairs: [JoinPair]) -> Int? {
        guard isSmall(keyTable), let keys = sampledKeys(of: keyTable, side: 0, pairs, keyFilter) else { return nil }
        return lookahead(keys, to: table, side: 0, pairs, [keyFilter, filter])
    }

    /// Whether the join's parents can all give it a filter: one parent, or several of which
    /// none is a difference reading it as its right operand (49/1848: such a difference
    /// gives its right operand the left one's rows only once the left has completed; looked
    /// ahead, 4 rows → 6). Held-out seed 105 case 1968: `shared = t2 join t3` under both
    /// operands of `shared join shared` and, renamed, a difference's right operand, the
    /// difference joined with the two-row `t0`. `t2`'s one key matches 14 of `t3`'s 299
    /// rows (unindexed on it), but once `t2` was drained the join was sized at its one row,
    /// and `t0` was deferred behind it: `t3` read those 14 rows (15 against 3; `t0`'s keys
    /// reach `t3`'s index, with `join-conjunct-pushdown`'s `partBound`).
    private static func parentsCanFilter(_ parents: [Edge], _ nodes: [PlanNode]) -> Bool {
        guard parents.count > 1 else { return parents.count == 1 }
        return parents.allSatisfy { up in
            if case .apply(.difference) = nodes[up.parent].operation { return up.operand == 0 }
            return true
        }
    }

    /// Whether `table` is small enough for its statistics sample to be all of it, so that its
    /// key values are known without reading it.
    private static func isSmall(_ table: MemoryTable) -> Bool {
        table.count <= MemoryTable.statisticsSampleLimit
    }

    /// The key values of `smallTable`'s sample (all of it) under its active filter, nil when
    /// the filter cannot be compiled or a key attribute is missing.
    private static func sampledKeys(of smallTable: MemoryTable, side: Int, _ pairs: [JoinPair], _ own: Predicate?) -> Set<Row>? {
        let smallAttributes = pairs.map { side == 0 ? $0.left : $0.right }
        let columns = smallAttributes.compactMap { smallTable.scheme.index(of: $0) }
        guard columns.count == smallAttributes.count else { return nil }
        var filter: CompiledPredicate?
        if let own, !own.isConstantTrue {
            guard let compiled = try? CompiledPredicate(own, scheme: smallTable.scheme) else { return nil }
            filter = compiled
        }
        var keys: Set<Row> = []
        for row in smallTable.statisticsSample() where filter?.matches(row) ?? true {
            keys.insert(Row(columns.map { row.values[$0] }))
        }
        return keys
    }

    /// The key values a side's active filter allows, when it confines every key attribute
    /// to a few values (`Predicate.pinnedValueSets`: equalities, IN-sets, ORs of them, `a <=
    /// null`), at most 64 keys in all; nil otherwise. A large table's sample does not hold
    /// all its rows, so its keys are not known, but such a filter bounds them: whatever rows
    /// pass, their keys are among these, and each matches all the other side's rows with
    /// that key. Issue 15, held-out seed 149 case 1583: `(t2 join t0 join (t1 minus …))
    /// select (a <= null and …)`, `t2` 500 rows of which the sample held none passing, sized
    /// at 2 rows; the join was sized by it and the 2-row `t1` deferred behind it. `t2`'s one
    /// passing row has a null `a`, which keys 16 of `t0`'s rows (17 rows against 2: drained
    /// first, `t1`'s keys leave `t0` nothing and `t2` `false`).
    private static func pinnedKeys(side: Int, _ pairs: [JoinPair], _ own: Predicate?) -> Set<Row>? {
        guard let own else { return nil }
        let sets = own.pinnedValueSets
        var keys: [[Value]] = [[]]
        for pair in pairs {
            guard let values = sets[side == 0 ? pair.left : pair.right], keys.count * values.count <= 64 else { return nil }
            keys = keys.flatMap { key in values.map { key + [$0] } }
        }
        return Set(keys.map { Row($0) })
    }

    /// The rows of `largeTable` matching `keys`, the key values of the join's operand `side`.
    private static func lookahead(_ keys: Set<Row>, to largeTable: MemoryTable, side: Int,
                                  _ pairs: [JoinPair], _ filters: [Predicate?]) -> Int? {
        let largeAttributes = pairs.map { side == 0 ? $0.right : $0.left }
        guard largeAttributes.allSatisfy({ largeTable.scheme.index(of: $0) != nil }) else { return nil }
        if keys.isEmpty { return 0 }
        let keyFilter = Predicate.inSet(attributes: largeAttributes, keys: keys)
        // A drained small side's keys may already be the other side's filter.
        let combined = filters[1 - side].map { $0 == keyFilter ? keyFilter : Predicate.all([$0, keyFilter]) } ?? keyFilter
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
