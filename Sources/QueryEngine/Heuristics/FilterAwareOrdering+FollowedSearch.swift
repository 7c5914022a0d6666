import Relational

/// `filter-aware-ordering`'s exact size of a closure searched on demand, when the search
/// can be followed without reading the table: through its statistics sample, when the
/// sample is the whole table, or else through the index on the search's pinned end, whose
/// groups are each round's fetch (`MemoryTable.probeIndex`, planning's look at the data,
/// as `estimatedCount` is, and no more rows in all than a sample holds). The rows each
/// round fetches are counted, instead of the search being guessed at the geometric mean of
/// its first fetch and its whole table (`seededReach`).
///
/// The hunt's cases (issue 15, held-out seeds at `--rows 300`): 457/1622 (thirty-ninth
/// session), `t0 project [c, e] closure [e -> c] select (e == 7.5 or e == 29.0) join [c =
/// c, e = b] t1 minus t0`, `t0` 30 rows indexed on `e`, `t1` five rows whose keys miss
/// both pins. The search was guessed at the geometric mean of its first fetch and its
/// table, above `t1`'s five rows, and waited behind `t1`, which was read whole (5 rows);
/// followed through the sample (all of `t0`) it fetches one row, and drained first its
/// key leaves `t1` nothing to deliver (1 row). 465/1556 is the same class over a 150-row
/// table, `t1 project [a, b] closure [a -> b] select (a == 5) join t2`: the search fetches
/// one row (`5 → 29`, and no row starts at 29), but that row is one of the 22 the evenly
/// spaced sample skips, so the thirty-ninth session, which followed larger tables through
/// the sample only while it held each round's rows, left it guessed (5 rows against 1).
/// Followed through the index (fortieth session) it is one row, and goes first (1 row).
///
/// A search that would fetch more than `searchProbeLimit` rows is followed no further, and
/// what it fetched up to there, with the round the limit stopped (counted by the index), is
/// a lower bound (`SearchRows.atLeast`). Held-out seed 569 case 1411 at `--rows 300`: `t1
/// join t0 join t1 join t1 join t0 project [b, c] closure [c -> b] select (b == 42)`, `t0`
/// 300 rows indexed on `b`, `t1` five rows. Not followed, the search was guessed at 30
/// rows, under the 40 `t1`'s keys take of `t0`, so it went first and read 281; drained
/// first, `t1`'s keys (nulls and texts) take 40 rows and leave the search nothing (45
/// rows). A search over a larger table whose pinned end has no index is not followed (its
/// rounds are then scans). Sizing the rest as a branching process (each row's open end
/// starting, on average, as many rows as the index counts for the sample's open ends) was
/// tried on 465/1556 and does not help: there a fifth of the sample's ends are null, and
/// the 23 rows with a null start make the mean fan-out 5.6, so the search is sized at its
/// whole table; it reads one row only because its start leads nowhere.
extension FilterAwareOrdering {
    /// The most rows an index probe follows for one search: as many as a statistics sample
    /// holds.
    static let searchProbeLimit = MemoryTable.statisticsSampleLimit

    /// What following a search found, in hundredths of rows.
    enum SearchRows {
        /// Every round followed: what the search fetches.
        case exact(Int)
        /// Followed up to `searchProbeLimit` rows: it fetches at least this many.
        case atLeast(Int)
    }

    /// The source rows a search from `starts` on `pinnedEnd` toward `openEnd` fetches, when
    /// the closure's operand is projects, renames and selects over a memory table (see
    /// above); nil otherwise. Bounded by the table's rows and rounds.
    static func followedSearchRows(_ closure: NodeID, from pinnedEnd: Attribute, to openEnd: Attribute,
                                  starts: Set<Value>, _ nodes: [PlanNode], _ run: any RunnerContext) -> SearchRows? {
        guard let (source, pinned, open) = Self.sourceNames(below: closure, pinnedEnd, openEnd, nodes),
            case let .source(relation) = nodes[source].operation, let table = relation as? MemoryTable,
            let pinnedColumn = table.scheme.index(of: pinned), let openColumn = table.scheme.index(of: open)
        else { return nil }
        let whole = table.count <= MemoryTable.statisticsSampleLimit
        if !whole, !table.canFetchSelectively(pinned *== .null) { return nil }
        // The fetch also tests the source's own active filter; the sample's rows are
        // matched against it after the keys (the index counts the keys alone).
        let own = run.filterState(of: source)
        var ownFilter: CompiledPredicate?
        if own.isActive, let filter = own.filter, !filter.isConstantTrue {
            if filter.isUnsatisfiable { return .exact(0) }
            guard let compiled = try? CompiledPredicate(filter, scheme: table.scheme) else { return nil }
            ownFilter = compiled
        }
        let sample = whole ? table.statisticsSample() : []
        var requested = starts
        var frontier = starts
        var fetched = 0, probed = 0
        for _ in 0..<table.count + 1 {
            guard !frontier.isEmpty else { return .exact(fetched * 100) }
            let rows: [Row]
            if whole {
                rows = sample.filter { frontier.contains($0.values[pinnedColumn]) }
            } else {
                guard let found = table.probeIndex(pinned, values: frontier, limit: Self.searchProbeLimit - probed) else {
                    // Past the limit: this round's rows, counted by the index, all fetched
                    // unless the source's own filter drops some.
                    guard ownFilter == nil else { return .atLeast(fetched * 100) }
                    let round = table.estimatedCount(filter: .any(frontier.map { pinned *== $0 })) ?? 0
                    return .atLeast((fetched + round) * 100)
                }
                rows = found
                probed += found.count
            }
            var next: Set<Value> = []
            for row in rows where ownFilter?.matches(row) ?? true {
                fetched += 1
                let end = row.values[openColumn]
                if requested.insert(end).inserted { next.insert(end) }
            }
            frontier = next
        }
        return nil
    }

    /// The closure's operand's source, and the two attributes under the source's names,
    /// when the operand is a chain of projects, renames and selects with one operand each.
    /// A select's predicate reaches the source as its filter (`select-pushdown`), which is
    /// what a fetch tests and what the sample's rows are matched against. Without
    /// `select-pushdown` the fetched rows are still counted right, but every one of them is
    /// taken to lead on, so the search may be sized above what it fetches. Held-out seed 490
    /// case 1308 at `--rows 300`: `t0 join t3 select (… c <= 3 …) closure [b -> c] select (c
    /// == 17 or c == 13) join t2`; the select contradicts the pin, so the search fetches
    /// nothing, but guessed at several rows it waited behind `t2`'s five (5 rows against 0).
    static func sourceNames(below closure: NodeID, _ first: Attribute, _ second: Attribute,
                                    _ nodes: [PlanNode]) -> (NodeID, Attribute, Attribute)? {
        guard nodes[closure].children.count == 1 else { return nil }
        var id = nodes[closure].children[0], names = (first, second)
        for _ in 0..<16 {
            switch nodes[id].operation {
            case .source: return (id, names.0, names.1)
            case let .apply(.rename(map)):
                func back(_ name: Attribute) -> Attribute { map.first { $0.value == name }?.key ?? name }
                names = (back(names.0), back(names.1))
            case .apply(.project), .apply(.select): break
            default: return nil
            }
            guard nodes[id].children.count == 1 else { return nil }
            id = nodes[id].children[0]
        }
        return nil
    }
}
