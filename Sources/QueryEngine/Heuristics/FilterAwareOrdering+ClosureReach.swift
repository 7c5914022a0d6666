import Relational

/// `filter-aware-ordering`'s size of a closure seeded from one pinned end, split from
/// `FilterAwareOrdering.swift`: how far the search is guessed to reach when a join above
/// could still narrow it.
extension FilterAwareOrdering {
    /// A closure seeded from one pinned end (`closure-seeding`), in hundredths, when a join
    /// or intersection above it could pin the other end (`keysAbovePin`): its source is
    /// estimated by its first fetch, the frontier's edges, but the search goes on round by
    /// round for as long as the frontier lasts, anywhere up to the whole edge table. Sized at
    /// the geometric mean of the two, the midpoint of that range on a log scale. Issue 15,
    /// held-out seed 172 case 1781: `t0 project [b, c] closure [b -> c] select (c == "k232"
    /// or c == 56) join [b = b, c = d] t3`, `t0` 498 rows indexed on `c`, `t3` one row. The
    /// closure's first fetch was estimated at a row, no larger than `t3`, so it went first
    /// and its backward search read 123 rows; drained first, `t3`'s key pins the closure's
    /// start too, and the search restarts from it (2 rows). Nil otherwise: keys on the end
    /// already pinned only narrow what the search finds, and sized up, the closure waited
    /// behind their side for nothing (seed 54 case 1134, a forward search from `d` joined
    /// on `d` with a 26-row table: 17 rows → 43; that closure is over a join, so it is not
    /// searched on demand and reads its operand whole, filter or not), unless the search is
    /// fetched on demand and those keys are known and hold none of the pinned values
    /// (`keysAboveMiss`): then they empty it, so it waits. A search fetched on demand that
    /// nothing above keys at either end is sized at its reach too: no filter can narrow it,
    /// so its first fetch says nothing of what draining it reads, while a side that goes
    /// first may empty it (held-out seed 243 case 1856 at the default rows: `shared = t1
    /// project [c, d] closure [d -> c] select (d == 137) project [d]` under `(shared
    /// intersect shared select (…) minus shared)`, joined with `(t1 join t0) select (d ==
    /// null)`; the search, sized at one edge, went before `t0`'s two rows and read 899,
    /// where `t0`'s keys match nothing of `t1` and leave the search `false`: 899 rows
    /// against 2).
    func seededReach(_ node: NodeID, _ from: Attribute, _ to: Attribute, firstFetch: Int,
                     _ nodes: [PlanNode], _ run: any RunnerContext) -> Int? {
        let own = run.filterState(of: node)
        guard own.isActive, let filter = own.filter, firstFetch < Int.max else { return nil }
        let pinned = filter.pinnedValueSets
        let pinnedEnd: Attribute, values: Set<Value>, openEnd: Attribute
        var bothPinned = false
        switch (pinned[from], pinned[to]) {
        case let (start?, nil): (pinnedEnd, values, openEnd) = (from, start, to)
        case let (nil, end?): (pinnedEnd, values, openEnd) = (to, end, from)
        case let (start?, end?):
            guard let forwards = Self.searchesForwards(node, from, to, nodes) else { return nil }
            (pinnedEnd, values, openEnd) = forwards ? (from, start, to) : (to, end, from)
            bothPinned = true
        default: return nil
        }
        // Unless a key above may pin the open end, the search is sized up only when fetched
        // on demand, and then when nothing above keys its pinned end or the keys miss it.
        // Both ends pinned, it is sized when fetched on demand (`searchesForwards`).
        let onDemandOnly = bothPinned || !Self.keysAbovePin(openEnd, of: node, nodes)
        guard bothPinned || !onDemandOnly || !Self.keysAbovePin(pinnedEnd, of: node, nodes)
            || Self.keysAboveMiss(values, on: pinnedEnd, of: node, nodes, run)
        else { return nil }
        var whole: Int? = 0
        forEachSource(under: node, nodes) { id in whole = whole.flatMap { sum in nodes[id].approximateCount.map { sum + $0 } } }
        guard let whole else { return nil }
        if onDemandOnly {
            guard Self.searchesOnDemand(node, nodes), firstFetch < whole * 100 else { return nil }
        }
        var atLeast = firstFetch
        if firstFetch < whole * 100 {
            switch Self.followedSearchRows(node, from: pinnedEnd, to: openEnd, starts: values, nodes, run) {
            case let .exact(rows)?: return rows
            case let .atLeast(rows)?:
                // Taken only where the keys above would empty the search: otherwise it
                // still reads as much after their side, and drained first its rows may key
                // that side (held-out seeds 416 case 882 and 405 case 1086 at `--rows
                // 300`: taken there too, 192 rows → 340 and 202 → 267).
                if Self.keysAboveMiss(values, on: pinnedEnd, of: node, nodes, run) { atLeast = max(atLeast, rows) }
            case nil: break
            }
        }
        let reach = (Double(firstFetch) * Double(whole) * 100).squareRoot().rounded(.up)
        return reach < Double(Int.max / 2) ? max(atLeast, Int(reach)) : nil
    }

    /// For a closure whose filter pins both ends, whether its search starts from `from`
    /// (true: when its source can fetch by it, as `closure-seeding` starts) or from `to`
    /// (false); nil when it fetches by neither. The other end's pin narrows only what the
    /// search finds, not what it fetches, so the search is sized from where it starts.
    /// Issue 15, forty-first session, held-out seed 329 case 960 at the default rows:
    /// `shared = t0 project [b, d] closure [d -> b]`, `(t1 join t0) rename […] join (shared
    /// join shared intersect t1 rename [a -> b, b -> d])`, `t0` 998 rows indexed on `b`,
    /// `t1` one row. The intersection's key pinned both ends of the closure, which was then
    /// sized at its first fetch (2 rows), so `t1 join t0`'s keyed fetch of `t0` waited
    /// behind it and the backward search read 927 rows; that fetch, drained first, finds
    /// nothing and empties the output join's other side (1 row).
    static func searchesForwards(_ closure: NodeID, _ from: Attribute, _ to: Attribute, _ nodes: [PlanNode]) -> Bool? {
        guard let (source, fromName, toName) = Self.sourceNames(below: closure, from, to, nodes),
            case let .source(relation) = nodes[source].operation
        else { return nil }
        if relation.canFetchSelectively(fromName *== .null) { return true }
        return relation.canFetchSelectively(toName *== .null) ? false : nil
    }

    /// Whether `attribute` of `node` is a key of the first join or intersection above it,
    /// through a chain of selects, projects and renames each with one parent.
    static func keysAbovePin(_ attribute: Attribute, of node: NodeID, _ nodes: [PlanNode]) -> Bool {
        keyAbove(attribute, of: node, nodes) != nil
    }

    /// Whether the first join or intersection above `node` keys `attribute` (pinned to
    /// `values` by the closure's filter) from an operand not complete whose key values are
    /// known (`knownValues`; once it has started, `boundingValues`) and hold none of
    /// `values`: its key filter, AND-ed with the pin,
    /// then leaves the search nothing to find. Issue 15, held-out seed 192 case 433 at
    /// `--rows 3000`: `t0 closure [d -> b] select (d == 732) join t1 intersect t1 join t0`,
    /// `t0` 281 rows indexed on `d`, `t1` five unindexed rows, none of them 732. Sized at its
    /// first fetch (one row) the search went before `t1` and read 26 rows of `t0`; drained
    /// first, `t1`'s keys contradict the pin and the search reads none (32 rows against 7).
    static func keysAboveMiss(_ values: Set<Value>, on attribute: Attribute, of node: NodeID,
                              _ nodes: [PlanNode], _ run: any RunnerContext) -> Bool {
        guard let key = keyAbove(attribute, of: node, nodes) else { return false }
        let other = nodes[key.edge.parent].children[1 - key.edge.operand]
        // Once the other operand has started, what is known of it is only the bound (its
        // filter may have narrowed since its sample's values were read); once complete, its
        // keys are the closure's filter already.
        guard !run.isComplete(other) else { return false }
        let known = run.hasStarted(other) ? boundingValues(of: key.otherName, in: other, nodes, run)
            : knownValues(of: key.otherName, in: other, nodes, run)
        return known?.isDisjoint(with: values) ?? false
    }

    /// Whether the closure's operand is a chain of one-operand operators over a source, the
    /// shape `closure-seeding` fetches on demand (the caller also asks that an index narrowed
    /// the first fetch): only then does a filter that matches nothing spare the source.
    static func searchesOnDemand(_ closure: NodeID, _ nodes: [PlanNode]) -> Bool {
        var id = closure
        for _ in 0..<16 {
            guard nodes[id].children.count == 1 else { return false }
            id = nodes[id].children[0]
            if nodes[id].operation.isSource { return true }
        }
        return false
    }

    /// The first join or intersection above `node` whose keys hold `attribute` (under the
    /// names the renames between give it), through a chain of selects, projects and renames
    /// each with one parent: the edge into it, and the attribute's name on its other operand.
    private static func keyAbove(_ attribute: Attribute, of node: NodeID,
                                 _ nodes: [PlanNode]) -> (edge: Edge, otherName: Attribute)? {
        var id = node, name = attribute
        for _ in 0..<8 {
            guard nodes[id].parents.count == 1, nodes[id].outputs.isEmpty, let up = nodes[id].parents.first else { return nil }
            switch nodes[up.parent].operation {
            case .apply(.select), .apply(.project): break
            case let .apply(.rename(map)): name = map[name] ?? name
            case let .apply(.join(pairs)):
                guard let pair = pairs.first(where: { (up.operand == 0 ? $0.left : $0.right) == name }) else { return nil }
                return (up, up.operand == 0 ? pair.right : pair.left)
            case .apply(.intersection): return (up, name)
            default: return nil
            }
            guard nodes[up.parent].scheme.attributes.contains(name) else { return nil }
            id = up.parent
        }
        return nil
    }

    /// The values of `attribute` that a node's rows can deliver, when they are known without
    /// reading anything: the node is a memory table small enough for its statistics sample
    /// to be all of it, or a chain of selects, projects and renames over one (the attribute
    /// followed back through the renames; a select between only removes values), and the
    /// values are the sample's under the table's active filter. Failing that, a bound on
    /// them: the values of a small table below whose rows each of the node's takes the
    /// attribute from (`JoinKeyLookahead.keyTable`: through a join holding it, say), unfiltered
    /// (its filter may not be active yet). Nil otherwise. Held-out seed 569 case 1411 (see
    /// `FilterAwareOrdering+FollowedSearch.swift`): the keys above came from `t1 join t0
    /// join t1 join t1`, bounded by `t1`'s five rows.
    private static func knownValues(of attribute: Attribute, in node: NodeID, _ nodes: [PlanNode],
                                    _ run: any RunnerContext) -> Set<Value>? {
        var id = node, name = attribute
        for _ in 0..<16 {
            switch nodes[id].operation {
            case .source: return sampledValues(of: name, in: id, nodes, run)
            case let .apply(.rename(map)): name = map.first { $0.value == name }?.key ?? name
            case .apply(.select), .apply(.project): break
            default: return boundingValues(of: attribute, in: node, nodes, run)
            }
            guard nodes[id].children.count == 1 else { return boundingValues(of: attribute, in: node, nodes, run) }
            id = nodes[id].children[0]
        }
        return nil
    }

    private static func boundingValues(of attribute: Attribute, in node: NodeID, _ nodes: [PlanNode],
                                       _ run: any RunnerContext) -> Set<Value>? {
        var budget = 16
        guard let bound = JoinKeyLookahead.keyTable(of: node, [attribute], nodes, &budget),
            let column = bound.table.scheme.index(of: bound.attributes[0])
        else { return nil }
        return Set(bound.table.statisticsSample().map { $0.values[column] })
    }

    private static func sampledValues(of attribute: Attribute, in node: NodeID, _ nodes: [PlanNode],
                                      _ run: any RunnerContext) -> Set<Value>? {
        guard case let .source(source) = nodes[node].operation, let table = source as? MemoryTable,
            table.count <= MemoryTable.statisticsSampleLimit, let column = table.scheme.index(of: attribute)
        else { return nil }
        let state = run.filterState(of: node)
        var filter: CompiledPredicate?
        if state.isActive, let own = state.filter, !own.isConstantTrue {
            guard let compiled = try? CompiledPredicate(own, scheme: table.scheme) else { return nil }
            filter = compiled
        }
        var values: Set<Value> = []
        for row in table.statisticsSample() where filter?.matches(row) ?? true { values.insert(row.values[column]) }
        return values
    }
}
