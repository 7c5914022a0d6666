import Relational

/// `late-subtree-copying`: subtree copying where the seed's criterion 2 ("another parent has
/// not provided yet") does not hold but a parent's selective filter would still be lost.
///
/// 1. A parent narrows the filter it already gave a node that still waits on other parents.
///    The hunt's class (issue 15): `((t2 join t3) select (true)) join t3` with `t2` empty.
///    `select-pushdown` hands the inner join `true` at the start, the inner join passes it
///    on, so `t3` has heard from one of its two parents. When `t2` completes empty, the inner
///    join's `false` only narrows that edge; `t3` still waits on the outer join, which cannot
///    provide before the inner join completes, which needs `t3`: `t3` is read in full.
/// 2. The last parent to provide gives a filter that fetches selectively while a filter
///    another parent gave does not, and one of those others has not received its own filter yet (so it
///    may narrow what it gave later). `(t1 select (true)) join (t0 join t1)` with `t0` empty:
///    the inner join's `false` would be OR-ed with the select's `true` and `t1` read in full;
///    copied, the inner join reads none of it, completes empty, and the outer join's `false`
///    then reaches the original `t1` through the select (`late-filter-narrowing`).
/// 3. and 4. A narrowing lost in the OR of an active node's filter: see
///    `narrowingIsLostInTheOr` and `keyNarrowingIsLost`.
/// 5. A source gets a filter (or a narrowing) while every other parent still to give one
///    gives it only from rows that need this edge's parent: uncopied it is drained whole.
///    See `othersWaitOnThisEdge`.
/// 6. The last parent to provide gives a filter that fetches far more than the others',
///    while a join above its own parent waits on the others' side: see
///    `narrowedByTheOthersSide`.
/// 7. Case 3 before the node is active: see `narrowingIsLostBeforeActivation`.
/// 8. A veto (`vetoesCopy`), for any heuristic's copy: a filter that keeps more than half
///    of what the copy would read anyway is not worth reading it again; see
///    `narrowsTheCopyToHalf`.
/// 9. A narrowing, after the node is active too, that leaves the edge's filter matching
///    nothing (`narrowsToNothing`), where the node has another parent: copied, the copy costs
///    no row and completes its parent's operand empty; OR-ed, the narrowing is lost.
///    Held-out seed 637 case 16 at `--rows 300`: `shared = t1 select (40 == d)`, `shared_2 =
///    t1 minus shared`, `(shared_2 intersect shared) select (d <= 28 and …)`; `shared`'s
///    part, `40 == d and (d <= 28 … or d == 71.0 …)`, reached the active `t1` and was OR-ed
///    with `shared_2`'s, and `t1` read its 27 rows under 28 (27 rows against 0). A copy
///    along an edge of a node with one parent would leave the original parentless, yet
///    drained (a first version read a 0-row case's 80 rows so).
///
/// Otherwise the seed's criteria, with a smaller limit: the subtree has at most 8 nodes, none of
/// them started or complete, and the filter reaches a source that can fetch selectively. A
/// copy along an edge that already gave a filter takes that filter over
/// (`Runner.copySubtree`), and the narrowing then applies to the copy alone.
public final class LateSubtreeCopying: Heuristic {
    public static let copying = FlagKey<Bool>("late-subtree-copying")

    public static let flags = [
        FlagSpec(
            name: copying.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "copy a node's subtree for a parent whose selective filter would be lost: one narrowing what it gave while the node waits on others, the last to provide when the others' filters fetch everything, or one whose filter a source would otherwise be drained without, every other parent giving only from rows that need it",
            laterThanSeed: true)
    ]

    /// Small subtrees only (a heuristic reads only its own flags, so not
    /// `subtree-copy-limit`): the hunt's cases copy a source or a rename over one, while with
    /// the seed's 100 a 60-level select-union chain, narrowed level by level, copied and
    /// re-narrowed for over a minute instead of 0.3 s.
    let limit = 8

    public static func make(_ flags: FlagSet) -> LateSubtreeCopying? {
        flags.isOn(copying) ? LateSubtreeCopying() : nil
    }

    /// Settings and scratch only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    /// `waveGivesTheSame`'s walk up the graph, its buffers kept between asks.
    private let above = Above()

    /// Case 8's sampled answers, kept while a table's version holds: a prepared query asks
    /// about the same copies every run.
    private let halves = SampledHalves()

    /// Both cases need a node waiting on two parents.
    public func hooks(for graph: PlanGraph) -> HeuristicHooks { graph.hasSharedNode ? .all : .none }

    public func willNarrowFilter(_ filter: Predicate, along edge: Edge, run: any RunnerContext) {
        guard !filter.isConstantTrue else { return }
        let child = run.child(at: edge)
        let state = run.filterState(of: child)
        if state.isActive {
            if run.graph[child].parents.count >= 2, narrowsToNothing(filter, along: edge, run), copyable(child, run) {
                run.copySubtree(along: edge)
                return
            }
            if narrowingIsLostInTheOr(filter, along: edge, state, run) || keyNarrowingIsLost(filter, along: edge, run) {
                copyNarrowingSelects(along: edge, run)
            }
            return
        }
        guard state.remainingParents > 0, copyable(child, run) else { return }
        let narrowed = run.providedFilter(along: edge).map { Predicate.all([$0, filter]) } ?? filter
        if Self.reachesSource(child, filter, run, where: { $0.canFetchSelectively($1) && Self.deliversHalfAtMost($0, $1) })
            || narrowsToNothing(filter, along: edge, run)
            || othersWaitOnThisEdge(child, besides: edge, state, giving: narrowed, run) && Self.deliversAQuarterAtMost(child, narrowed, run)
            || narrowingIsLostBeforeActivation(filter, along: edge, run) {
            run.copySubtree(along: edge)
        }
    }

    /// Case 7, case 3 before the node is active: a parent narrows what it gave a node that
    /// still waits on another parent, the narrowed filter fetches far less than what the
    /// other parents gave, and one of them may still narrow its own (`mayNarrowApart`).
    /// Activated uncopied, the node's OR keeps the wide filter and the narrowing is lost;
    /// copied, the copy reads what the narrowing keeps, and the original waits for the
    /// other parents to narrow. Issue 15, held-out seed 416 case 1549 at `--rows 300`:
    /// `shared = t1 join [a = d] t2 join t1` under `(shared join shared) select (c <= "A")`
    /// and `t2 join [d = b] t1`, `t1` 299 unindexed rows all meeting the select. The
    /// select's predicate reached `t1` from both joins of `shared` at the start; `t2`'s two
    /// keys narrowed the inner join's edge while `t1` still waited on the output join, and
    /// were lost in the OR: `t1` was read whole (308 rows against 19).
    private func narrowingIsLostBeforeActivation(_ filter: Predicate, along edge: Edge, _ run: any RunnerContext) -> Bool {
        guard let given = run.providedFilter(along: edge) else { return false }
        let child = run.graph.child(at: edge)
        var others: [Predicate] = []
        for up in run.graph[child].parents where up != edge {
            guard let gave = run.providedFilter(along: up) else { continue }
            if !gave.isUnsatisfiable { others.append(gave) }
        }
        guard !others.isEmpty else { return false }
        let narrowed = Predicate.all([given, filter])
        guard atSource(child, narrowed, .any(others), run).map({
            fetchesFarLess($0.source, $0.narrowed, than: $0.current, run)
        }) == true else { return false }
        return Self.mayNarrowApart(child, besides: edge, run) && !Self.waveNarrowsTheSame(filter, along: edge, run)
            && !anotherGaveAsMuch(narrowed, besides: edge, run)
    }

    /// Copies the subtree along `edge` for a narrowing of an active node's filter; when that
    /// leaves the original read by one parent, the selects above it get back the predicates
    /// sharing kept from them. Only here: a copy made while a filter is being provided
    /// (`willProvideFilter`) comes before that edge's filter is recorded, and a narrowing
    /// wave started then reached nodes still counting that parent (an engine invariant
    /// tripped in `ChangePropagationTests`).
    private func copyNarrowingSelects(along edge: Edge, _ run: any RunnerContext) {
        let original = run.child(at: edge)
        guard run.copySubtree(along: edge) != nil else { return }
        narrowSelects(above: original, run)
    }

    /// `select-pushdown` adds a select's predicate to a filter its parents gave first only
    /// over a tree the select alone reads (`SelectPushdown.readsAloneATree`): over a shared
    /// node it would be OR-ed with the other readers' filters. A copy made later may leave
    /// `node` with one reader; each select in the chain of single readers above it whose
    /// operand is now such a tree narrows its edge with its predicate, which then reaches
    /// the sources below that have not started. The hunt's case (issue 15, held-out seed 316
    /// case 471): `shared = (t1 minus (t1 join t0)) select (c == a)` under `(shared intersect
    /// shared) select (b == null)`, `t0` empty. `t1` was shared by the minus and the join, so
    /// `c == a` (text against numbers in `t1`, which matches nothing) stayed above it; `t0`
    /// completed empty and `t1` was copied for the join, but the minus's `t1` still had only
    /// `b == null` and read its 40 rows where 0 were needed.
    private func narrowSelects(above node: NodeID, _ run: any RunnerContext) {
        var graph = run.graph
        var current = node
        for _ in 0..<SelectPushdown.treeLimit {
            let parents = graph[current].parents
            guard let reader = parents.first?.parent, parents.allSatisfy({ $0.parent == reader }) else { return }
            let edge = Edge(parent: reader, operand: 0)
            if case let .apply(.select(predicate)) = graph[reader].operation, !predicate.isConstantTrue,
                let given = run.providedFilter(along: edge), !given.conjuncts.contains(predicate),
                run.hasUndrainedSource(below: current), SelectPushdown.readsAloneATree(current, graph) {
                run.provideFilter(predicate, along: edge)
                graph = run.graph
            }
            current = reader
        }
    }

    /// Whether the edge's filter, narrowed by `filter`, reaches a source as a filter that
    /// provably matches nothing (`Predicate.pinsMatchNothing`): two join key IN-sets
    /// that share no key. Each may fetch everything from an unindexed source, so the seed's
    /// criterion 3 sees no selective fetch, but their AND fetches nothing: a copy costs no
    /// rows and completes at once. The hunt's case (held-out seed 98 case 1169): `t2`
    /// (300 rows, unindexed) under `t2 join t1` and under `t2 intersect (t0 join (t2 join
    /// t1))`. `t1`'s keys reached `t2`'s join edge first, then `t0`'s, which share none;
    /// uncopied, `t2` still waited on the intersection, which waited on the join, which
    /// waited on `t2`: read whole (307 rows against 5).
    private func narrowsToNothing(_ filter: Predicate, along edge: Edge, _ run: any RunnerContext) -> Bool {
        guard let given = run.providedFilter(along: edge) else { return false }
        let narrowed = Predicate.all([given, filter])
        guard narrowed.pinsMatchNothing else { return false }
        return Self.reachesSource(run.child(at: edge), narrowed, run) { _, reaching in
            reaching.isUnsatisfiable || reaching.pinsMatchNothing
        }
    }

    public func willProvideFilter(_ filter: Predicate, along edge: Edge, run: any RunnerContext) {
        guard !filter.isConstantTrue else { return }
        let child = run.child(at: edge)
        let state = run.filterState(of: child)
        if state.remainingParents >= 2 {
            // Otherwise the seed's `subtree-copying` decides.
            if othersWaitOnThisEdge(child, besides: edge, state, giving: filter, run), Self.deliversAQuarterAtMost(child, filter, run),
                !SubtreeCopying.reachesSelectiveSource(child, filter, run) {
                run.copySubtree(along: edge)
            }
            return
        }
        guard state.remainingParents == 1, let others = state.filter else { return }
        let lost = (othersMayNarrow(child, besides: edge, run) || Self.mayNarrowApart(child, besides: edge, run))
            && copyable(child, run)
            && SubtreeCopying.reachesSelectiveSource(child, filter, run)
            && Self.disjuncts(others).contains(where: { !SubtreeCopying.reachesSelectiveSource(child, $0, run) })
        if lost || fetchesFarLess(child, filter, than: others, run) && Self.mayNarrowLater(child, besides: edge, run)
            && copyable(child, run) {
            run.copySubtree(along: edge)
            return
        }
        // Case 6, case 2's mirror: this filter fetches far more than the others', and the
        // others' side, served by the original, completes and then narrows this edge's parent.
        // The walk first: it is cheaper than two estimates, and rarely finds such a join.
        if Self.narrowedByTheOthersSide(child, along: edge, run), fetchesFarLess(child, others, than: filter, run),
            copyable(child, run) {
            run.copySubtree(along: edge)
        }
    }

    /// Case 6 (issue 15, thirty-fifth session): whether a join or intersection above
    /// `edge`'s parent waits on another operand that reads `child` through its other parents
    /// alone: copied along `edge`, the original is drained under the other parents' filter,
    /// which fetches far less; that operand completes, and its keys narrow this edge's
    /// parent, and through it the copy, before the copy is drained. Uncopied, the two filters
    /// are OR-ed and the larger one is read whole. Held-out seed 295 case 1211 at the
    /// default rows: `t2 join [c = d] t3 join (t2 join [c = d] t0)`, `t2` 894 unindexed rows,
    /// `t0` one row keying 6 of them, `t3` one null keying 59: `t0`'s key reached `t2` first,
    /// `t3`'s came last, and `t2` was read under both (67 rows against 8).
    static func narrowedByTheOthersSide(_ child: NodeID, along edge: Edge, _ run: any RunnerContext) -> Bool {
        let graph = run.graph
        guard !run.isComplete(edge.parent) else { return false }
        var pending = graph[edge.parent].parents
        var seen: Set<NodeID> = []
        while let up = pending.popLast() {
            if case let .apply(op) = graph[up.parent].operation {
                switch op {
                case .join, .intersection:
                    for operand in graph[up.parent].children.indices where operand != up.operand {
                        let other = graph.child(at: Edge(parent: up.parent, operand: operand))
                        if !run.isComplete(other), other != child, reads(child, from: other, besides: edge, graph) { return true }
                    }
                case .difference, .union, .select, .project, .rename, .closure: break
                }
            }
            guard seen.insert(up.parent).inserted, seen.count <= 64 else { continue }
            pending.append(contentsOf: graph[up.parent].parents)
        }
        return false
    }

    /// Case 5 (issue 15, eighteenth session): another parent still waiting reads the edge's
    /// parent below it and gives its filter only from rows (a join or intersection whose
    /// other operand reads it, a difference's right operand whose left operand does), and
    /// every other one still waiting gives its filter from rows that do not need the child
    /// (`givesFromOperandsWithout`): the first kind cannot give one before the child is
    /// drained, so uncopied, the child is drained with no active filter, and the filter given
    /// now is lost. The seed's `subtree-copying` copies
    /// here toward a source that fetches selectively (criterion 3), and this case takes the
    /// rest: a source drained whole delivers every row either way, where the copy delivers
    /// only what passes. Held-out seed
    /// 116 case 1254: `shared = t2 join t0` under `(t1 join shared) minus t0` and an output,
    /// `t0` 300 rows indexed on `d` and `e`, not `b`; the one-row `t2` drained first, its
    /// `b == 7.0` reached `t0`, which then waited on the difference, which waited on the join,
    /// which waited on `t0`: read whole (370 rows against 86). The same holds when the edge
    /// gave its filter earlier and narrows it now (`willNarrowFilter`): with `select-pushdown`
    /// a select's predicate reaches the source first, and the keys arrive as a narrowing
    /// (22/1972: `(t2 intersect t1 rename [b -> a]) select (…) join t2`, `t1` one row, `t2`
    /// 20 unindexed: 21 rows against 1). An other parent already active counts as waiting
    /// too when it has given nothing along its edge: it gave its filter where it could at
    /// activation, so what is left is a filter from rows (15/1679, 65 rows against 4).
    /// `filter`: what `edge` holds once the filter being given or narrowed is in place.
    private func othersWaitOnThisEdge(_ child: NodeID, besides edge: Edge, _ state: FilterState,
                                      giving filter: Predicate, _ run: any RunnerContext) -> Bool {
        let graph = run.graph
        guard !state.isActive, graph[child].outputs.isEmpty, case .source = graph[child].operation else { return false }
        var waiting = 0
        var waitingOnThisEdge = 0
        for up in graph[child].parents where up != edge && !run.hasProvided(along: up) {
            guard up.parent != edge.parent else { return false }
            if Self.givesOnlyFromOperands(up, reading: edge.parent, graph, run) {
                waitingOnThisEdge += 1
            } else if !Self.givesFromOperandsWithout(child, up, graph) {
                return false
            }
            waiting += 1
        }
        // A parent that gave its filter but narrows it only from rows that need this edge's
        // parent (a join over the edge's parent, given a select's predicate at the start)
        // waits on this edge too. Issue 15, held-out seed 432 case 456 at `--rows 300`: `t1`
        // (five rows) under `(t3 join t1) … select (a < 14) join t1` and `t1 join t2`, the
        // outer join given `d == null` by `select-pushdown`; `t3`'s key, matching no row,
        // narrowed the inner join's edge while `t1` waited on `t1 join t2`, and `t1` was read
        // whole (6 rows against 1). Copied, the inner join completes empty and `false` follows.
        // Only through this edge: an operand that also reads the child otherwise completes
        // only once the child is drained, too late to narrow it (seed 360 case 1967: an
        // intersection over a union whose other side joins the child; copied, the child's
        // keyed rows were read twice, 67 rows → 95). And not when another parent gave about
        // what this filter fetches: the original reads those rows anyway (seed 394 case
        // 858: a join's keys on the source beside an intersection's select; 12 rows → 17).
        if waitingOnThisEdge == 0 {
            waitingOnThisEdge = graph[child].parents.filter { up in
                up != edge && up.parent != edge.parent && run.hasProvided(along: up)
                    && Self.narrowsOnlyFromRowsOf(edge, besides: up, graph, run)
            }.count
            if waitingOnThisEdge > 0, anotherGaveAsMuch(filter, besides: edge, run) { return false }
        }
        let thisEdge = run.hasProvided(along: edge) ? 0 : 1
        return waitingOnThisEdge > 0 && waiting + thisEdge == state.remainingParents && copyable(child, run)
    }

    /// Whether `up.parent` makes its filter along `up` from an incomplete operand that reads
    /// `edge.parent` and reads `edge`'s child through `edge` alone.
    private static func narrowsOnlyFromRowsOf(_ edge: Edge, besides up: Edge, _ graph: PlanGraph,
                                              _ run: any RunnerContext) -> Bool {
        guard let others = operandsGivingAFilter(along: up, graph) else { return false }
        let child = graph.child(at: edge)
        return others.contains { operand in
            let below = graph.child(at: Edge(parent: up.parent, operand: operand))
            return !run.isComplete(below) && (below == edge.parent || graph.subtree(of: below, upTo: 256)?.contains(edge.parent) ?? true)
                && !reads(child, from: below, besides: edge, graph)
        }
    }

    /// Whether `up.parent` gives a filter along `up` only from other operands' rows, none of
    /// which reads `child`: it gives one once they complete, whatever becomes of `child`, so
    /// it does not keep the child waiting. Seed 60 case 1077: `t0` under `t0 join t1` (`t1`
    /// two rows, not drained yet), `t0 join t2` and the output join `(t0 join t2) join t0`;
    /// `t2`'s key reached `t0` first, and the output join, waiting on `t0 join t2`, kept
    /// `t0` waiting after `t1` gave its keys: read whole (152 rows against 7).
    private static func givesFromOperandsWithout(_ child: NodeID, _ up: Edge, _ graph: PlanGraph) -> Bool {
        guard let others = operandsGivingAFilter(along: up, graph) else { return false }
        return others.allSatisfy { operand in
            let below = graph.child(at: Edge(parent: up.parent, operand: operand))
            return below != child && !(graph.subtree(of: below, upTo: 256)?.contains(child) ?? true)
        }
    }

    /// Whether the source delivers at most a quarter of its rows under `filter`, by its
    /// statistics sample (`SampledEstimates.sample`) for a memory table, else its estimate:
    /// the copy reads those rows, and the original, if its other parents' filters turn out
    /// to keep everything, all of its rows again. Unbounded, the first re-hunt of seeds
    /// 15–50 read more on 3,560 cases (15/22: a join's keys that every row holds, 304 rows →
    /// 608) and 50 went over 4×.
    private static func deliversAQuarterAtMost(_ node: NodeID, _ filter: Predicate, _ run: any RunnerContext) -> Bool {
        guard case let .source(source) = run.graph[node].operation, let whole = run.graph[node].approximateCount
        else { return false }
        if let table = source as? MemoryTable, let hundredths = SampledEstimates.sample(table, filter) {
            return hundredths <= whole * 25
        }
        guard let estimate = source.estimatedCount(filter: filter) else { return false }
        return estimate * 4 <= whole
    }

    /// Whether `source` delivers at most half its rows under `filter` (sampled for a memory
    /// table, else by its estimates). Case 1 copies toward a source the narrowing fetches by
    /// an index, and an index fetch can still return most rows: a join's IN-set of 83 keys
    /// on an indexed column of 150 rows matched 135 (issue 15, twenty-second session, seed
    /// 33 case 756: `shared = t0 rename [a -> f] join t0` under `(shared select (b >= 3.0)
    /// minus shared) join t1`; the copy and the seed's copy below it read `t0` three times,
    /// 476 rows against `seed`'s 233).
    private static func deliversHalfAtMost(_ source: any SourceRelation, _ filter: Predicate) -> Bool {
        if let table = source as? MemoryTable, let hundredths = SampledEstimates.sample(table, filter) {
            return hundredths <= table.count * 50
        }
        guard let estimate = source.estimatedCount(filter: filter), let whole = source.estimatedCount(filter: nil)
        else { return true }
        return estimate * 2 <= whole
    }

    /// The operands whose rows are all `up.parent` can make a filter along `up` from (a
    /// join's or intersection's others, a difference's left for its right operand), or nil
    /// for a parent that gives its filter otherwise.
    private static func operandsGivingAFilter(along up: Edge, _ graph: PlanGraph) -> [Int]? {
        switch graph[up.parent].operation {
        case .apply(.join), .apply(.intersection): return graph[up.parent].children.indices.filter { $0 != up.operand }
        case .apply(.difference) where up.operand == 1: return [0]
        default: return nil
        }
    }

    /// Whether `up.parent` gives a filter along `up` only from another operand's rows, and
    /// that operand, incomplete, reads `node`.
    private static func givesOnlyFromOperands(_ up: Edge, reading node: NodeID, _ graph: PlanGraph,
                                              _ run: any RunnerContext) -> Bool {
        guard let others = operandsGivingAFilter(along: up, graph) else { return false }
        return others.contains { operand in
            let below = graph.child(at: Edge(parent: up.parent, operand: operand))
            return !run.isComplete(below) && (below == node || graph.subtree(of: below, upTo: 256)?.contains(node) ?? true)
        }
    }

    /// Case 3 (issue 15, eighth round): a parent narrows the filter it gave a node whose
    /// filter is already active, OR-ed with what other parents gave, and the narrowed filter
    /// fetches far less (nothing, or a quarter of the node's rows at most, by the source's
    /// estimate) while one of the others may still narrow what it gave. The OR keeps the
    /// narrowing from fetching less; a copy takes it alone. The hunt's case (seed 17 case
    /// 583): `((t0 intersect t2 rename [a -> c]) minus t0) select (d > 16)`, `t2` empty. The
    /// select's `d > 16` reaches `t0` from both its parents at the start; when `t2` completes
    /// empty, `set-operand-filter`'s `false` narrows the intersection's edge only, and `t0`
    /// was read under `d > 16` (27 rows). Copied, the intersection's `t0` reads nothing,
    /// the difference's left operand completes empty, and its `false` reaches the original.
    private func narrowingIsLostInTheOr(
        _ filter: Predicate, along edge: Edge, _ state: FilterState, _ run: any RunnerContext
    ) -> Bool {
        let child = run.graph.child(at: edge)
        guard run.graph[child].parents.count >= 2, let current = state.filter,
            !Self.othersGiveNothing(child, besides: edge, run)
        else { return false }
        let narrowed = run.providedFilter(along: edge).map { Predicate.all([$0, filter]) } ?? filter
        guard narrowed.isUnsatisfiable || atSource(child, narrowed, current, run).map({
            fetchesFarLess($0.source, $0.narrowed, than: $0.current, run)
        }) == true else { return false }
        return Self.mayNarrowLater(child, besides: edge, run) && !Self.waveNarrowsTheSame(filter, along: edge, run)
            && !anotherGaveAsMuch(narrowed, besides: edge, run) && copyable(child, run)
    }

    /// Whether another parent gave the child a filter that the narrowed one implies (has
    /// among its conjuncts) and that fetches no far more: the OR, narrowed, then fetches
    /// about what the narrowed filter alone does, and a copy would read those rows again.
    /// Issue 15, held-out seed 326 case 1884 at `--rows 300`: `shared = t2 union t2 select
    /// (c == a or (…))` under `shared union shared select (null >= a and …)`, narrowed by
    /// `a == 1`. In the copy of `shared` made for the outer union, the select's predicate,
    /// which all 10 rows under `a == 1` match, reached `t2` beside the union's `a == 1`,
    /// and its narrowing by `a == 1` was copied: `t2` read twice, 21 rows against 11.
    private func anotherGaveAsMuch(_ narrowed: Predicate, besides edge: Edge, _ run: any RunnerContext) -> Bool {
        guard !narrowed.isUnsatisfiable, !narrowed.pinsMatchNothing else { return false }
        let child = run.graph.child(at: edge)
        return run.graph[child].parents.contains { up in
            guard up != edge, let gave = run.providedFilter(along: up), narrowed.impliesSyntactically(gave) else {
                return false
            }
            return atSource(child, narrowed, gave, run).map { !fetchesFarLess($0.source, $0.narrowed, than: $0.current, run) } ?? false
        }
    }

    /// Whether the narrowing wave under way (`Runner.narrowingWave`, parents before
    /// children) leaves every other parent's edge into the child with the filter this edge
    /// is narrowed to: each either has it already, or its parent is active and, rebuilt from
    /// its own parents' current filters (already narrowed higher up in the wave), passes it
    /// down. The child's OR then narrows as far as this edge, so nothing is lost and a copy
    /// reads the same rows again. Issue 15, twenty-second session, seed 74 case 466: `(t2
    /// join t2 minus t2 intersect t2) select (…) join t1`, `t1`'s keys narrowing the
    /// difference and through it all four edges into `t2`; three were copied one by one and
    /// `t2`'s 23 matching rows were read four times (97 rows against 28).
    private static func waveNarrowsTheSame(_ filter: Predicate, along edge: Edge, _ run: any RunnerContext) -> Bool {
        let graph = run.graph
        guard let given = run.providedFilter(along: edge) else { return false }
        let narrowed = Self.narrowing(given, by: filter)
        for up in graph[graph.child(at: edge)].parents where up != edge {
            guard let current = run.providedFilter(along: up) else { return false }
            if current == narrowed { continue }
            guard run.filterState(of: up.parent).isActive, !graph[up.parent].parents.isEmpty else { return false }
            var rebuilt = FilterDisjuncts()
            for above in graph[up.parent].parents {
                guard let f = run.providedFilter(along: above) else { return false }
                _ = rebuilt.add(Self.afterThisLoop(f, along: above, besides: edge, run))
            }
            guard let derived = run.derivedFilter(rebuilt.predicate, along: up),
                Self.narrowing(current, by: derived) == narrowed
            else { return false }
        }
        return true
    }

    /// The filter `current` on `above` once the wave's loop over `edge.parent`'s operands
    /// is done: a later operand's edge of the same parent is narrowed next, by the parent's
    /// (already narrowed) filter rewritten for it; any other keeps `current`. Held-out seed
    /// 209 case 534: a union narrows its edge into `t0` and then its edge into a join over
    /// `t0`, the join being `t0`'s other parent; rebuilt from the join's edge as it stood,
    /// the join looked to keep its wider filter, and `t0` was copied (58 rows read again).
    private static func afterThisLoop(_ current: Predicate, along above: Edge, besides edge: Edge,
                                      _ run: any RunnerContext) -> Predicate {
        guard above.parent == edge.parent, above.operand > edge.operand,
            let parentFilter = run.filterState(of: edge.parent).filter,
            let derived = run.derivedFilter(parentFilter, along: above),
            !current.impliesSyntactically(derived)
        else { return current }
        return narrowing(current, by: derived)
    }

    /// An edge's filter `given` narrowed by `filter`, as the runner's `narrowEdge` makes it.
    private static func narrowing(_ given: Predicate, by filter: Predicate) -> Predicate {
        filter.impliesSyntactically(given) ? filter : .all([given, filter])
    }

    /// Case 4 (issue 15, twelfth round): a key filter (an IN-set of a complete operand's
    /// keys, or `false`) narrows the edge into an active shared node of any kind while another
    /// parent's edge holds a predicate that is no key filter (a select's range, pushed at the
    /// start by `select-pushdown`): the runner's OR keeps the range, and the keys, however few,
    /// are lost in it. Case 3 asks the source's estimate and follows only renames and selects;
    /// an index's estimate of a key IN-set over several attributes is what its one attribute
    /// fetches (seed 29 case 541: 30 keys on `(a, c, d)`, `t1` indexed on `d`, estimated far
    /// above the quarter), and the shared node may be a project or a join (33/920: `t1 project
    /// [a]` under a difference and an intersection; 29/1753: `t0 join t2` under a select and a
    /// difference). When the seed's `subtree-copying` sees the same filter arrive before the
    /// node is active (as without `select-pushdown`) it copies on the keys reaching a source
    /// that fetches selectively; so does this, when another parent may still narrow what it
    /// gave (else the original, keeping its OR, is read whole anyway), and unless the wave
    /// under way gives every other edge the same narrowing (`waveNarrowsTheSame`; held-out
    /// seed 209 case 534: a join narrowed its edge into `shared` before its edge into a union
    /// over `shared`, which passed the same keys on next, and `t0` was read once more).
    private func keyNarrowingIsLost(_ filter: Predicate, along edge: Edge, _ run: any RunnerContext) -> Bool {
        guard JoinFilterPushdown.hasKeyFilter(filter) else { return false }
        let graph = run.graph
        let child = graph.child(at: edge)
        guard graph[child].parents.count >= 2 else { return false }
        // Another edge of the same parent (a self-join, a union of the node with itself) gets
        // the same narrowing in the same wave: it keeps nothing lost. (33/1778: counted, each
        // self-join and union level copied the shared select anew, 6 rows read → 15.)
        let others = graph[child].parents.filter { $0.parent != edge.parent }
        guard others.contains(where: { other in
            guard let given = run.providedFilter(along: other) else { return false }
            return !given.isUnsatisfiable && !JoinFilterPushdown.hasKeyFilter(given)
        }) else { return false }
        let narrowed = run.providedFilter(along: edge).map { Predicate.all([$0, filter]) } ?? filter
        return Self.reachesSelectiveSource(child, narrowed, run)
            && Self.mayNarrowLater(child, besides: edge, run) && !Self.waveNarrowsTheSame(filter, along: edge, run)
            && copyable(child, run)
    }

    /// `SubtreeCopying.reachesSelectiveSource`, but a join side the runner cannot pass the
    /// join's filter to whole is followed with the part of it that side reads (what
    /// `join-conjunct-pushdown` gives it). Issue 15, fourteenth round: with `select-pushdown`
    /// a select's predicate reaches the shared node first, so a key narrowing arrives AND-ed
    /// with it; when the predicate reads both sides of a join below (`b > d`, or an OR with
    /// `c < d`), the runner passes the AND to neither side, and the seed's walk saw no source
    /// the keys would fetch selectively: no copy, and the keys were lost in the OR. Without
    /// `select-pushdown` the keys arrive alone, reach the indexed side whole, and the seed's
    /// `subtree-copying` copies. Seed 29 case 1753 (`t0 join [b = d] t2` under a select `b >
    /// d …` and a difference; 76 rows against 4), seed 38 case 1469 (`t1 join [e = c] t3`
    /// under a join with one-row `t2` and an intersection, select `c < d or …`; 6 against 1).
    static func reachesSelectiveSource(_ start: NodeID, _ startFilter: Predicate, _ run: any RunnerContext) -> Bool {
        reachesSource(start, startFilter, run) { source, filter in source.canFetchSelectively(filter) }
    }

    /// The walk of `reachesSelectiveSource`, asking `test` of each source the filter reaches.
    static func reachesSource(_ start: NodeID, _ startFilter: Predicate, _ run: any RunnerContext,
                              where test: (any SourceRelation, Predicate) -> Bool) -> Bool {
        var seen: Set<Visit> = [Visit(node: start, filter: startFilter)]
        var pending = [Visit(node: start, filter: startFilter)]
        while let visit = pending.popLast() {
            let node = run.graph[visit.node]
            if case let .source(source) = node.operation {
                if test(source, visit.filter) { return true }
                continue
            }
            for operand in node.children.indices {
                let edge = Edge(parent: visit.node, operand: operand)
                guard let derived = passedDown(visit.filter, along: edge, run) else { continue }
                let next = Visit(node: run.graph.child(at: edge), filter: derived)
                if seen.insert(next).inserted { pending.append(next) }
            }
        }
        return false
    }

    /// What `filter` becomes down `edge`: the runner's rewrite (`derivedFilter`), or, for a
    /// join side the runner cannot pass it to whole, the part of it that side reads (what
    /// `join-conjunct-pushdown` gives it); nil when neither reaches the side.
    static func passedDown(_ filter: Predicate, along edge: Edge, _ run: any RunnerContext) -> Predicate? {
        if let derived = run.derivedFilter(filter, along: edge) { return derived }
        guard case .apply(.join) = run.graph[edge.parent].operation,
            let part = JoinConjunctPushdown.partRead(of: filter, by: run.graph[run.graph.child(at: edge)].scheme),
            !part.isConstantTrue
        else { return nil }
        return part
    }

    private struct Visit: Hashable {
        let node: NodeID
        let filter: Predicate
    }

    /// Whether every parent of `node` other than `edge` has given `false` (or another
    /// filter nothing passes): the runner's OR, rebuilt as `edge` narrows, is then the
    /// narrowing alone, which no copy improves on. And a copy would leave the original,
    /// active, with its old OR, which a later narrowing of those edges can no longer change
    /// (the runner skips a narrowing the edge's filter already implies). The hunt's case
    /// (issue 15, twelfth round, seed 26 case 73, `(t2 join ((t2 join t2) select (null > d)
    /// select (d <= 39 and …))) project [d] join [d = a] t0`, `t0` empty): the outer
    /// join's `false` reached `t2` last, and the selects' range, narrowed to `false` down the
    /// self-join's edges, was copied away from it: `t2` read 49 rows under the range (0 without
    /// the copy).
    static func othersGiveNothing(_ node: NodeID, besides edge: Edge, _ run: any RunnerContext) -> Bool {
        run.graph[node].parents.allSatisfy { other in
            other == edge || run.providedFilter(along: other)?.isUnsatisfiable == true
        }
    }

    /// The source under `node` and both filters as they reach it, when `node` is the source
    /// or a short chain of renames and selects over one (nil otherwise, or when a filter
    /// cannot be passed down). Issue 15, tenth session, seed 30 case 646: the shared node was
    /// `t0 rename […]` under two intersections, and the one-row `t3`'s IN-set, narrowing one
    /// edge, was lost in the OR with the selects' range on the other (126 rows against 1),
    /// because only a shared source was asked. Not through a project: seed 15 case 999, a
    /// project under a chain of unions, then copied level by level and read its source twice
    /// (284 rows → 568).
    private func atSource(
        _ node: NodeID, _ narrowed: Predicate, _ current: Predicate, _ run: any RunnerContext
    ) -> (source: NodeID, narrowed: Predicate, current: Predicate)? {
        var id = node, narrowed = narrowed, current = current
        for _ in 0..<limit {  // a longer chain could not be copied anyway
            switch run.graph[id].operation {
            case .source:
                return (id, narrowed, current)
            case .apply(.rename), .apply(.select):
                let down = Edge(parent: id, operand: 0)
                guard let n = run.derivedFilter(narrowed, along: down), let c = run.derivedFilter(current, along: down)
                else { return nil }
                (narrowed, current, id) = (n, c, run.graph.child(at: down))
            default:
                return nil
            }
        }
        return nil
    }

    /// What `source` fetches by index for the values `filter` pins an attribute to once its
    /// comparisons with constants have dropped some (`pinsNarrowedByComparisons`); nil when
    /// none is dropped or no index reads the attribute. A source's estimate of a conjunction
    /// is its most selective conjunct's, so a parents' OR of equalities AND-ed with a
    /// select's range counts every value of the OR. Issue 15, held-out seed 277 case 513
    /// (default rows): `(t1 intersect t1 select (121.0 < d)) select (d == 222.0 or d ==
    /// null)`, `t1` 479 rows indexed on `d`, 53 of them null. The select's range drops the
    /// null (the least value), so its read fetches 2 rows against the intersection's 55;
    /// estimated at 55 both, the copy was vetoed and `t1` read 55 rows (against 4 copied).
    private static func narrowedPinsCount(_ filter: Predicate, _ source: any SourceRelation) -> Int? {
        guard case .and = filter else { return nil }
        let narrowed = filter.pinsNarrowedByComparisons
        guard !narrowed.isEmpty else { return nil }
        let pinned = filter.pinnedValueSets
        var least: Int?
        for (attribute, values) in narrowed where values.count < (pinned[attribute]?.count ?? 0) {
            if values.isEmpty { return 0 }
            let keys = Predicate.inSet(attributes: [attribute], keys: Set(values.map { Row([$0]) }))
            guard source.canFetchSelectively(keys), let count = source.estimatedCount(filter: keys) else { continue }
            least = min(least ?? count, count)
        }
        return least
    }

    /// Whether the source `node` is estimated to fetch at most a quarter of the rows under
    /// `filter` that it fetches under `others` (a source the filter rules out fetches none).
    private func fetchesFarLess(_ node: NodeID, _ filter: Predicate, than others: Predicate, _ run: any RunnerContext) -> Bool {
        guard case let .source(source) = run.graph[node].operation else { return false }
        if filter.isUnsatisfiable { return true }
        guard var few = source.estimatedCount(filter: filter), let many = source.estimatedCount(filter: others) else {
            return false
        }
        if let pinned = Self.narrowedPinsCount(filter, source) {
            if pinned == 0 { return true }
            few = min(few, pinned)
        }
        if few * 4 <= many && few < many { return true }
        // A join's keys no index reads: a memory table estimates them and the others' filter
        // alike at its whole size, and its statistics sample tells what each delivers (the
        // count `source_rows_read` takes). Seed 20 case 862: `shared = t0 join t1 join t0` and
        // `(shared join t1) select (e < a)`, `t1` 148 rows unindexed: the select's `e < a`
        // reached `t1` first, the join's `e in {4, 46}` (4 rows) came last and was lost in
        // the OR (76 rows against 10). Keys only: a range's sample copied for `id < 2` where
        // the later narrowing keeps the original to one row (`HuntClassNinthRoundTests`).
        if JoinFilterPushdown.hasKeyFilter(filter), let table = source as? MemoryTable, few >= table.count,
            many >= table.count, !source.canFetchSelectively(filter),
            let sampledFew = SampledEstimates.sample(table, filter), let sampledMany = SampledEstimates.sample(table, others),
            sampledFew * 4 <= sampledMany, sampledFew < sampledMany {
            return true
        }
        // An index's estimate of a filter over several attributes (a join's key IN-set) is
        // what the one attribute it reads fetches, often far above what the filter delivers,
        // while an OR the index cannot read is estimated at the whole table: against such an
        // OR a third will do. The hunt's case (issue 15, tenth round, seed 21 case 1683,
        // reduced `(t1 join t0 join t1) select (true)`, `t1` indexed): the select's `true`
        // reached `t1` from both joins; `t0`'s 5 keys, estimated at 6 of 22 rows, narrowed
        // the inner join's edge and were lost in the OR (27 rows against 7; 178 against 40
        // whole). At a half, seed 21 case 1144 copied for 64 of 150 rows and read them twice.
        return few * 3 <= many && source.canFetchSelectively(filter) && !source.canFetchSelectively(others)
    }

    /// Whether a parent of `node` other than `edge` may still narrow what it gives: it, or a
    /// node above it, is a join or intersection whose other operand is incomplete, or the
    /// right operand's parent in a difference whose left operand is incomplete (each makes a
    /// filter of that operand's rows when it completes). An operand that is `node` itself
    /// completes only once `node` is drained, too late to narrow it (issue 15, ninth round,
    /// seed 19 case 1442: `t1 minus t1 select (b > 30)` beside `t1 join t2`), unless it is
    /// `node` along `edge`, which the copy replaces: held-out seed 343 case 807, `t3` under
    /// `(t3 project [a] select (a < 65)) join t3`, where the select's `a < 65` reached `t3`
    /// first and the join's key IN-set from a difference (5 keys, none in `t3`) came last;
    /// copied, the join's `t3` completes empty and its `false` reaches the original through
    /// the select (249 rows read against 5). Not an operand that reads `node` deeper down:
    /// its own edge may be copied in turn and complete first (seed 18 case 1589, 6 rows that
    /// way and 41 when such operands were skipped).
    static func mayNarrowLater(_ node: NodeID, besides edge: Edge, _ run: any RunnerContext) -> Bool {
        mayNarrow(node, besides: edge, apart: false, run)
    }

    /// `mayNarrowLater`, counting only a waiting operand that does not read `node` but
    /// through `edge` (the edge about to be copied away): one that does completes only once
    /// `node` is drained, too late to narrow it. For case 2's active other parents (issue 15,
    /// fourteenth round): with `mayNarrowLater` itself, seed 44 case 1365 (`t0 join (shared
    /// union shared rename […])`, the join under both operands of a difference) copied the
    /// project under the union for the second IN-set on the promise of the difference, whose
    /// left operand is that join, and read `t2` twice (293 rows → 397).
    static func mayNarrowApart(_ node: NodeID, besides edge: Edge, _ run: any RunnerContext) -> Bool {
        mayNarrow(node, besides: edge, apart: true, run)
    }

    /// The walk of both: `apart` skips waiting operands that read `node` other than through `edge`.
    private static func mayNarrow(_ node: NodeID, besides edge: Edge, apart: Bool, _ run: any RunnerContext) -> Bool {
        let graph = run.graph
        // An edge already given `false` narrows no further (seed 26 case 73, at `othersGiveNothing`).
        var pending = graph[node].parents.filter { $0 != edge && run.providedFilter(along: $0)?.isUnsatisfiable != true }
        var seen: Set<NodeID> = []
        while let up = pending.popLast() {
            if case let .apply(op) = graph[up.parent].operation {
                let others = graph[up.parent].children.indices.filter { $0 != up.operand }
                let waits = others.contains {
                    let operand = graph.child(at: Edge(parent: up.parent, operand: $0))
                    // The operand along `edge` itself is the copy about to be made: a subtree
                    // of its own, it completes without `node` (held-out seed 343 case 807).
                    if Edge(parent: up.parent, operand: $0) == edge { return !run.isComplete(operand) }
                    return operand != node && !run.isComplete(operand)
                        && !(apart && reads(node, from: operand, besides: edge, graph))
                }
                switch op {
                case .join, .intersection: if waits { return true }
                case .difference: if up.operand == 1, waits { return true }
                case .union, .select, .project, .rename, .closure: break
                }
            }
            guard seen.insert(up.parent).inserted, seen.count <= 64 else { continue }
            pending.append(contentsOf: graph[up.parent].parents)
        }
        return false
    }

    /// Whether `node` lies below `start` on a path not through `edge` (past 256 nodes, assumed).
    private static func reads(_ node: NodeID, from start: NodeID, besides edge: Edge, _ graph: PlanGraph) -> Bool {
        var pending = [start]
        var seen: Set<NodeID> = [start]
        while let id = pending.popLast() {
            if id == node { return true }
            for (operand, child) in graph[id].children.enumerated() where Edge(parent: id, operand: operand) != edge {
                if seen.insert(child).inserted { pending.append(child) }
            }
            if seen.count > 256 { return true }
        }
        return false
    }

    /// Vetoes a copy (the seed's `subtree-copying` asks for it) that reads rows its original
    /// will read anyway:
    ///
    /// 1. Another parent still waiting on the child can never give it a filter: a union,
    ///    rename or project that never gets an active filter itself (it, or a node
    ///    above it through such operators, feeds an output), so the original is fetched
    ///    whole and the copy's rows are read twice. (Not when the child itself feeds an
    ///    output: seed 15 case 536, where the copy of a select chain under an output read
    ///    nothing and completed early, so a join's key filter kept 259 rows unread.) The hunt's case (issue 15, sixth round,
    ///    seed 15 case 449): `shared` under both operands of `shared join shared join t3` and
    ///    under the output union `… union shared`; the join's key filter from `t3` made one
    ///    copy per operand and each read `t2` again (120 rows; 34 uncopied).
    /// 2. Every other parent still waiting is another edge of the same parent, about to pass
    ///    the same filter down (a self-join `shared join shared`): uncopied, the child hears
    ///    that filter from each edge and is read once.
    ///
    /// 3. Every other parent of the child has given it, or will give it in the wave under
    ///    way (active nodes above passing their filters down the edges not given one yet),
    ///    exactly the filter this edge is giving (`waveGivesTheSame`): uncopied, the child
    ///    activates with that filter alone, so the copy reads the same rows again. The
    ///    hunt's case (held-out seed 77 case 1690): `shared = t1 join t1` under `shared join
    ///    (shared_2 minus shared union shared_2) join t0`, `shared_2 = t1 intersect shared`,
    ///    `t1` indexed on `c`. `t0`'s key `c == 2.0` reaches the outer join of `shared`,
    ///    which passes it to both operands; each shared node on the way was copied, and `t1`
    ///    was read six times under that filter and the IN-sets that followed (13 rows
    ///    against 3 uncopied).
    ///
    /// Neither when the copy breaks a wait (`breaksAWait`; for case 2, only an unindexed
    /// source's wait), nor for a filter that matches nothing over a subtree without a select:
    /// that copy reads no row and completes at once, while uncopied the `false` is lost in
    /// the OR with the other parents' filters. (A select in the copy pushes its own predicate
    /// as the copy is added, before the `false` arrives, so the copy reads nothing only if
    /// `late-filter-narrowing` narrows it: `LateFilterNarrowingTests`.) Issue 15, held-out
    /// seed 405 case 1052 at `--rows 300`: `shared = t0
    /// select (…)`, `shared join (t0 select (false) minus (t0 union shared union t0))`; the
    /// difference gave its flattened union `false`, whose two edges to `t0` are case 2's
    /// same parent, so neither was copied in time, `t0` was drained under the select's
    /// predicate, which its 150 rows all meet, and the difference waited on it (150 rows
    /// against 0).
    public func vetoesCopy(along edge: Edge, run: any RunnerContext) -> Bool {
        let graph = run.graph
        if run.filterBeingProvided(along: edge)?.isUnsatisfiable == true,
            let subtree = graph.subtree(of: graph.child(at: edge), upTo: limit),
            !subtree.contains(where: { if case .apply(.select) = graph[$0].operation { true } else { false } }) {
            return false
        }
        let child = graph.child(at: edge)
        if selectWillNarrowOneRead(edge, child, graph, run) { return false }
        if let filter = run.filterBeingProvided(along: edge), !narrowsTheCopyToHalf(child, filter, run),
            !anotherGaveANarrowFilter(child, besides: edge, run), !Self.breaksAWait(edge, run) {
            return true
        }
        var memo: [NodeID: Bool] = [:]
        // The child's other parents still waiting, walked in place (no list made per copy;
        // the graph read once: nothing here changes it).
        var waiting = 0
        for up in graph[child].parents where up != edge && !run.hasProvided(along: up) {
            if Self.neverProvides(up, graph, run, &memo) { return !Self.breaksAWait(edge, run) }
            waiting += 1
        }
        if Self.siblingsGiveTheSame(edge, child, waiting, graph, run) && !Self.breaksAWait(edge, run, onlyOnUnindexed: true) {
            return true
        }
        if waiting == 0, othersGaveItNarrowedByNothing(edge, child, graph, run) { return !Self.breaksAWait(edge, run) }
        guard let passing = waveGivesTheSame(edge, child, waiting, graph, run) else { return false }
        return !Self.breaksAWait(edge, run, passing: passing)
    }

    /// Case 8: a copy for a filter that keeps more than half of its source (for a copy of
    /// an operator, more than half of what the subtree's own selects keep: `keptShare`)
    /// reads most of it again, while uncopied it is read once under the OR of every
    /// parent's filter. Vetoed, unless the copy breaks a wait (`breaksAWait`) or
    /// another parent has already given a filter that keeps at most half
    /// (`anotherGaveANarrowFilter`): copied, the original then serves that filter alone.
    ///
    /// Issue 15, thirty-ninth session, held-out seed 460 case 1817 at `--rows 300`: `shared
    /// = t1 join t1` under `(t1 project [c, e] join shared) project [b, e] join ((shared
    /// union t1) join t0 join shared)`, `t1` 299 rows indexed on `b` and `e`. The seed's
    /// criterion 3 copied `t1` for each join's IN-set of 200-odd keys, each keeping about
    /// 237 of its rows: `t1` was read five times (1,495 rows against 371; `seed` 1,082).
    /// Vetoed, 608 rows. The exception comes from held-out seed 305 case 1278 at the default
    /// rows, `t2 select (wide) join t2 select (a contradiction)`, `t2` 100 unindexed rows:
    /// the copy for the wide select leaves the original to the contradiction's `false`, the
    /// join then gives the copy `false`, and nothing is read; vetoed, `t2` was read whole.
    ///
    /// A source's estimate is asked first: an index that finds at most half the rows needs
    /// no sample (a large table whose sample holds no matching row has its values counted,
    /// about 200,000 instructions, which the seed query's copy for `id in {…}` paid every
    /// run); other answers are sampled (`deliversHalfAtMost`) and kept (`SampledHalves`).
    private func narrowsTheCopyToHalf(_ child: NodeID, _ filter: Predicate, _ run: any RunnerContext) -> Bool {
        // A source, the usual copy, is asked in place: the walk allocates its visits.
        if case let .source(source) = run.graph[child].operation { return narrowsToHalf(source, filter) }
        var budget = 64
        guard let share = Self.keptShare(of: child, under: filter, floor: .constant(true), run, &budget) else { return true }
        return share.sources > 0 && share.kept * 2 <= share.floor
    }

    /// Only a memory table is sized (an SQL source's estimate is a query, asked once per
    /// filter and run through the runner's cache); any other source counts as narrowed.
    private func narrowsToHalf(_ source: any SourceRelation, _ filter: Predicate) -> Bool {
        guard let table = source as? MemoryTable else { return true }
        if let estimate = table.estimatedCount(filter: filter), estimate <= table.count / 2 { return true }
        return halves.answer(table, filter) { Self.deliversHalfAtMost(table, filter) }
    }

    private func anotherGaveANarrowFilter(_ child: NodeID, besides edge: Edge, _ run: any RunnerContext) -> Bool {
        run.graph[child].parents.contains { up in
            up != edge && run.providedFilter(along: up).map { narrowsTheCopyToHalf(child, $0, run) } == true
        }
    }

    /// Case 4: `edge` is the child's last parent to give a filter, and every other one gave
    /// it `given` AND-ed with conjuncts that narrow nothing the copy could use (neither
    /// contradicting it nor fetching far less below the child, `fetchesFarLessBelow`), or
    /// is a select that gave its own predicate and will be given `given` by this edge's
    /// parent (`late-filter-narrowing` then narrows it so). The original then fetches the
    /// rows the copy would, and uncopied the child is read once under both. Issue 15,
    /// held-out seed 326 case 1884 at `--rows 300`: `shared = t2 union t2 select (c == a or
    /// (…))` under `shared union shared select (null >= a and …)`, narrowed by `a == 1`. The
    /// copy of `shared` made for the outer union (its other reader's select contradicts
    /// `a == 1`) holds `t2` under its union and its select, whose predicate all 10 rows
    /// under `a == 1` match; the select gave first, and the union's `a == 1` was copied:
    /// `t2` read twice, 21 rows against 11.
    private func othersGaveItNarrowedByNothing(_ edge: Edge, _ child: NodeID, _ graph: PlanGraph,
                                               _ run: any RunnerContext) -> Bool {
        guard !run.hasProvided(along: edge), !run.hasStarted(child), graph[child].outputs.isEmpty,
            run.filterState(of: child).remainingParents == 1, let given = run.filterBeingProvided(along: edge)
        else { return false }
        var others = 0
        for up in graph[child].parents where up != edge {
            guard var gave = run.providedFilter(along: up) else { return false }
            if !gave.impliesSyntactically(given), case .apply(.select) = graph[up.parent].operation,
                Self.willReceive(given, up.parent, from: edge.parent, graph, run) {
                gave = .all([gave, given])
            }
            guard gave.impliesSyntactically(given) else { return false }
            if gave != given && (gave.pinsMatchNothing || fetchesFarLessBelow(child, gave, than: given, run)) { return false }
            others += 1
        }
        return others > 0
    }

    /// Whether every parent edge of `node` is one of `parent`'s that gets `filter` from its
    /// active filter (a union passes it to each operand) and has not yet.
    private static func willReceive(_ filter: Predicate, _ node: NodeID, from parent: NodeID, _ graph: PlanGraph,
                                    _ run: any RunnerContext) -> Bool {
        let state = run.filterState(of: parent)
        guard state.isActive, let passing = state.filter else { return false }
        return graph[node].parents.allSatisfy {
            $0.parent == parent && !run.hasProvided(along: $0) && run.derivedFilter(passing, along: $0) == filter
        }
    }

    /// A copy that lets `select-pushdown` narrow one of the two reads with a select's own
    /// predicate. In the start wave a select activated by its parents passes their filter
    /// on before its own turn comes; at its turn its predicate narrows its edge, but only
    /// into a tree it alone reads (`SelectPushdown.readsAloneATree`): the child, a source or
    /// a node over such a tree, is read by two. So a copy of the child, along the select's
    /// edge or along the other parent's, leaves one read to the select alone, narrowed, and
    /// the vetoes below (the same filter either way) no longer hold. Only in the start wave,
    /// before the select's turn (its edge not yet given its predicate), and only when the
    /// narrowing matches nothing or fetches far less (`fetchesFarLess`): a predicate no
    /// index reads leaves both reads the same rows, twice in all (`HuntClassTwelfthRoundTests`,
    /// `c != d`: 3 rows → 6). Issue 15: seed 26 case 56, `(t1 select (b > 2) minus t1)
    /// select (a == 72) select (b == null)`, `t1` indexed on `b`, the copy along the select's
    /// edge; vetoed, `t1` delivered its 27 null rows, copied, the copy's `b == null and b > 2`
    /// matches nothing, the difference's left side is empty and `t1` gets `false` (0 rows).
    /// Seed 27 case 1636, `((t0 minus shared) join shared) select (e == 2)`, `shared = t0
    /// select (e > 61)`, the copy along the difference's edge: 5 rows against 0. Twenty-first
    /// session, once the select narrows a tree: seed 117 case 1674, `shared = t0 union t2
    /// rename [c -> d]` under `(shared intersect shared select (e == -1.5)) select (…)`, `t0`
    /// indexed on `e` (12 rows against 0); seed 94 case 874, a project under a select whose
    /// predicate contradicts itself and an intersection (16 against 0).
    private func selectWillNarrowOneRead(_ edge: Edge, _ child: NodeID, _ graph: PlanGraph,
                                         _ run: any RunnerContext) -> Bool {
        // A child that feeds an output is read whole anyway: a copy only adds its rows.
        if copiedSelectNarrows(edge, child, graph, run) { return true }
        // Below the child, a tree nothing else reads, so that the select's predicate narrows it.
        guard !run.hasDrainedASource, graph[child].outputs.isEmpty,
            graph[child].children.allSatisfy({ SelectPushdown.readsAloneATree($0, graph) }) || Self.readsAloneBelow(child, graph),
            let given = run.filterBeingProvided(along: edge)
        else { return false }
        let parents = graph[child].parents
        if case .apply(.select) = graph[edge.parent].operation {
            return selectNarrows(edge.parent, child, given, graph, run)
        }
        // The original is left to the other parent: a select whose turn is still to come.
        if parents.count == 2, let other = parents.first(where: { $0 != edge }), !run.hasProvided(along: other),
            case .apply(.select) = graph[other.parent].operation, selectNarrows(other.parent, child, given, graph, run) {
            return true
        }
        // Both edges of a self-join are copied in turn (the second is this branch again), and
        // a node shared inside a copied subtree is copied for the chain up to the select
        // (`readsAloneBelow`; 326/1842, where the other parent is a select that does not narrow).
        guard graph[edge.parent].scheme == graph[child].scheme, let above = Self.selectAbove(edge.parent, graph) else { return false }
        return selectNarrows(above, child, given, graph, run)
    }

    /// The child is itself a select over a node something else reads too, so its predicate
    /// cannot narrow what is below it (`SelectPushdown.readsAloneATree`); a copy is a tree
    /// the copied select alone reads, and its predicate narrows it as the copy is added. So
    /// the copy reads what the filter and the predicate keep, which matches nothing or
    /// fetches far less (`selectNarrows`), where uncopied both parents' one filter is read
    /// once without the predicate. Issue 15, held-out seed 504 case 1912 at `--rows 300`
    /// (found in the fortieth session): `shared = t0 rename […]`, `shared_2 = shared select
    /// (f == 19 and …)` under `((shared intersect shared_2 intersect shared_2) select (g ==
    /// null)) minus t0 rename […]`, `t0` indexed. Both intersections gave `shared_2` `g ==
    /// null`, so its copy was vetoed; `shared` was read under `g == null` (5 rows). Copied,
    /// `shared_2`'s copy reads nothing and completes empty, both intersections are empty,
    /// and the difference gives its right side `false` (0 rows).
    private func copiedSelectNarrows(_ edge: Edge, _ child: NodeID, _ graph: PlanGraph, _ run: any RunnerContext) -> Bool {
        guard case .apply(.select) = graph[child].operation, graph[child].outputs.isEmpty,
            let operand = graph[child].children.first, !SelectPushdown.readsAloneATree(operand, graph),
            let given = run.filterBeingProvided(along: edge)
        else { return false }
        return selectNarrows(child, child, given, graph, run)
    }

    /// Whether `select`'s own predicate, added to the filter `given` along the copied edge,
    /// matches nothing or fetches far less below `child`.
    private func selectNarrows(_ select: NodeID, _ child: NodeID, _ given: Predicate, _ graph: PlanGraph,
                               _ run: any RunnerContext) -> Bool {
        guard case let .apply(.select(predicate)) = graph[select].operation, graph[select].copiedFrom == nil,
            !given.impliesSyntactically(predicate)
        else { return false }
        let narrowed = Predicate.all([given, predicate])
        return narrowed.pinsMatchNothing || fetchesFarLessBelow(child, narrowed, than: given, run)
            || Self.sampleShowsFarLess(child, narrowed, than: given, run)
    }

    /// Whether a memory table `child` whose index reads `given` fetches at most a quarter as
    /// many rows under `narrowed` when the conjuncts the fetch leaves to test (the select's
    /// predicate, which no index reads) are sized by the statistics sample
    /// (`SampledEstimates.residualSample`: the index's count times their sampled fraction),
    /// where the index's estimate alone sees the same rows. Issue 15, fortieth
    /// session, held-out seed 519 case 1922 at `--rows 300`: `shared = t1 select (b == a)
    /// intersect t1`, `(shared join shared) select (e == 0)`, `t1` 298 rows indexed on `e`.
    /// Both reads of `t1` were given `e == 0`, 5 rows by the index either way, so the copy
    /// for the select was vetoed and `t1` delivered its 5 rows; copied, the select narrows
    /// its own read to `e == 0 and b == a`, which no row meets, and the intersection then
    /// gives the other read `false` (0 rows).
    private static func sampleShowsFarLess(_ child: NodeID, _ narrowed: Predicate, than given: Predicate,
                                           _ run: any RunnerContext) -> Bool {
        guard case let .source(source) = run.graph[child].operation, let table = source as? MemoryTable,
            let many = table.estimatedCount(filter: given), many < table.count,
            let indexCount = table.estimatedCount(filter: narrowed),
            let few = SampledEstimates.residualSample(table, narrowed, indexCount: indexCount)
        else { return false }
        return few * 4 <= many * 100 && few < many * 100
    }

    /// Whether nothing outside `node`'s subtree reads a node below it (within
    /// `SelectPushdown.treeLimit` nodes). Sharing inside the subtree is split by the copies
    /// the same wave makes below, each asked here again (`selectAbove` finds the select over
    /// the copied chain), so the select's predicate still reaches all of it. Issue 15,
    /// held-out seed 326 case 1842 at `--rows 300`: `shared_2 = (t1 rename [a -> b]) join
    /// itself`, `shared_3 = shared_2 union shared_2 select (…)`, under `(shared_3 join
    /// shared_3 select (b > "line\nbreak") select (…)) select (b == null)`. The union was
    /// read by the join and by the select, and below it `shared_2` by the union and the
    /// select under it, so the copy of the union was vetoed (both readers give `b == null`);
    /// uncopied, `b > "line\nbreak"`, which contradicts `b == null`, never reached `t1`, and
    /// its 20 null rows were read where `seed`, copying, read 0.
    static func readsAloneBelow(_ node: NodeID, _ graph: PlanGraph) -> Bool {
        guard let nodes = graph.subtree(of: node, upTo: SelectPushdown.treeLimit) else { return false }
        return nodes.dropFirst().allSatisfy { below in
            graph[below].outputs.isEmpty && graph[below].parents.allSatisfy { nodes.contains($0.parent) }
        }
    }

    /// The select that a chain of single readers leads up to from `node`: each node on the
    /// way is read by one parent node (along one edge, or both edges of a self-join), feeds
    /// no output, renames nothing and has `node`'s scheme, so the select's attributes are
    /// `node`'s and mean the same there (compared as schemes: building the predicate's
    /// attribute set cost `many-selects-union` about 15k instructions a run); nil past
    /// `SelectPushdown.treeLimit` levels. Copying the child for every edge of `node`
    /// then leaves the select a tree it alone reads. Issue 15, held-out seed 318 case 1190 at
    /// `--rows 300`: `((t1 join t1) select (c < null) minus t1 join t1) select (c == null)`,
    /// `t1` read by two self-joins; the copies for the first were vetoed (both self-joins
    /// give `c == null`), so `c < null`, which nothing matches, never reached `t1`: 34 rows
    /// against 0.
    static func selectAbove(_ node: NodeID, _ graph: PlanGraph) -> NodeID? {
        var current = node
        for _ in 0..<SelectPushdown.treeLimit {
            switch graph[current].operation {
            case .apply(.rename), .apply(.closure): return nil
            default: break
            }
            let parents = graph[current].parents
            guard let reader = parents.first?.parent, graph[current].outputs.isEmpty,
                parents.allSatisfy({ $0.parent == reader }), graph[reader].scheme == graph[node].scheme
            else { return nil }
            if case .apply(.select) = graph[reader].operation { return reader }
            current = reader
        }
        return nil
    }

    /// `fetchesFarLess` at some source under `node`, both filters passed down the same edges
    /// (a join side the runner cannot pass a filter to whole gets what
    /// `join-conjunct-pushdown` gives it), or a source the narrowed filter rules out.
    private func fetchesFarLessBelow(_ node: NodeID, _ narrowed: Predicate, than given: Predicate,
                                     _ run: any RunnerContext) -> Bool {
        var pending = [(node, narrowed, given)]
        var visits = 0
        while let (id, few, many) = pending.popLast() {
            visits += 1
            guard visits <= 32 else { return false }
            if run.graph[id].operation.isSource {
                if few.pinsMatchNothing || fetchesFarLess(id, few, than: many, run) { return true }
                continue
            }
            for operand in run.graph[id].children.indices {
                let down = Edge(parent: id, operand: operand)
                guard let f = Self.passedDown(few, along: down, run) else { continue }
                pending.append((run.graph.child(at: down), f, Self.passedDown(many, along: down, run) ?? .constant(true)))
            }
        }
        return false
    }

    /// Case 3: the filter being given along `edge` is what every other parent of `child`
    /// has given it or will give it in the wave under way. The wave, over the child's
    /// ancestors, parents first: an active node passes its filter down every edge not given
    /// one yet (`passFilterToChildren` does, for each edge in turn, so those edges are still
    /// to come while this one is being given); a node that has not started, feeds no output
    /// and whose parents all give (or gave) it one and the same filter activates with it
    /// and passes it on. A node whose parents give differing filters is not followed (its OR
    /// is left to the runner), so the answer errs toward copying, the seed's choice.
    /// Returns the filter each node passes down in the wave, nil when it gives the child
    /// anything else.
    private func waveGivesTheSame(_ edge: Edge, _ child: NodeID, _ waiting: Int, _ graph: PlanGraph,
                                  _ run: any RunnerContext) -> [NodeID: Predicate]? {
        // Asked first, as it is cheap: a waiting parent gives nothing in the wave if it feeds
        // an output (which never provides, so the parent never activates) or has started
        // without being active.
        guard waiting > 0,
            graph[child].parents.allSatisfy({ up in
                up == edge || run.hasProvided(along: up)
                    || (graph[up.parent].outputs.isEmpty
                        && (!run.hasStarted(up.parent) || run.filterState(of: up.parent).isActive))
            }),
            !run.hasProvided(along: edge), let given = run.filterBeingProvided(along: edge),
            run.filterState(of: child).remainingParents == waiting + 1,
            above.fill(of: child, upTo: 64, graph)
        else { return nil }
        var wave: [Edge: Predicate] = [edge: given]
        var passing: [NodeID: Predicate] = [:]
        func filterFromParents(_ node: NodeID) -> Predicate? {
            var same: Predicate?
            for up in graph[node].parents {
                guard let f = run.providedFilter(along: up) ?? wave[up], same.map({ $0 == f }) ?? true else { return nil }
                same = f
            }
            return same
        }
        for node in above.parentsFirst where !run.isComplete(node) {
            let state = run.filterState(of: node)
            let passed = state.isActive ? state.filter
                : graph[node].outputs.isEmpty && !run.hasStarted(node) ? filterFromParents(node) : nil
            guard let passed else { continue }
            passing[node] = passed
            for operand in graph[node].children.indices {
                let down = Edge(parent: node, operand: operand)
                let below = graph.child(at: down)
                guard down != edge, below == child || above.contains(below), !run.hasProvided(along: down),
                    let derived = run.derivedFilter(passed, along: down)
                else { continue }
                wave[down] = derived
            }
        }
        let same = graph[child].parents.allSatisfy { up in
            up == edge || (run.providedFilter(along: up) ?? wave[up]) == given
        }
        return same ? passing : nil
    }

    /// The nodes above a node (its parents, theirs, and so on), marked by id, and in an order
    /// that puts every node after its parents among them. Marks and one walk up the parent
    /// edges, where a `Set` and the graph's whole topological order cost `many-selects-union`
    /// about 65k instructions a prepared run at 10k rows; one instance's buffers serve every
    /// ask (`fill` clears only the last ask's marks), where a new value per ask allocated
    /// its four arrays and grew two of them, about 5k instructions an ask.
    private final class Above {
        private var marked: [Bool] = []
        private var placed: [Bool] = []
        private var found: [NodeID] = []
        private var pending: [NodeID] = []
        private(set) var parentsFirst: [NodeID] = []

        /// The nodes above `node` in `graph`; false (and nothing to read) past `limit` nodes.
        func fill(of node: NodeID, upTo limit: Int, _ graph: PlanGraph) -> Bool {
            for id in found {
                marked[id] = false
                placed[id] = false
            }
            found.removeAll(keepingCapacity: true)
            parentsFirst.removeAll(keepingCapacity: true)
            let count = graph.nodes.count
            if marked.count < count {
                marked += repeatElement(false, count: count - marked.count)
                placed += repeatElement(false, count: count - placed.count)
            }
            pending.removeAll(keepingCapacity: true)
            pending.append(node)
            while let id = pending.popLast() {
                for up in graph[id].parents where !marked[up.parent] {
                    marked[up.parent] = true
                    found.append(up.parent)
                    if found.count > limit { return false }
                    pending.append(up.parent)
                }
            }
            for id in found { place(id, graph) }
            return true
        }

        func contains(_ id: NodeID) -> Bool { marked[id] }

        private func place(_ id: NodeID, _ graph: PlanGraph) {
            guard !placed[id] else { return }
            placed[id] = true
            for up in graph[id].parents where marked[up.parent] { place(up.parent, graph) }
            parentsFirst.append(id)
        }
    }

    /// Whether the copy breaks a wait that would drain a source unfiltered: a node below the
    /// child waits on a parent outside the child's subtree (a join's key filter) that itself
    /// waits, through its operands, on `edge.parent`. Uncopied, the node can get that filter
    /// only after its own rows went up through the child, so it is fetched before its filter
    /// is active. Hunt seed 39 case 1498 (default settings): `t2` under a shared select, under
    /// `(shared union t2) select (d == 131) join t2` and under the output union; vetoed, the
    /// join's `t2` waited on the union through the shared select and read all 5 rows, where
    /// the copy let the join's empty side give it `false` (0 rows).
    ///
    /// With `onlyOnUnindexed`, only a wait of a source that no equality fetches selectively
    /// counts (case 2 of the veto): subtree copying never copies toward such a source, so
    /// no later copy breaks its wait and the runner reads it whole, where a wait of an
    /// indexed source is broken by a smaller copy below (seed 33 case 1778: `t0`, indexed,
    /// under a rename shared by a self-join's union and an output join; copying the union
    /// for the self-join read `t2`'s rows again, 12 against 6). Held-out seed 68 case 1927
    /// (fourteenth session): `shared = t2 join [e = b] t1` under both edges of `shared join
    /// shared`, `t1` (19 rows, unindexed) also under an output join with a closure built on
    /// that self-join; vetoed, `t1` waited on that join, which waited on `t1`, and was read
    /// whole (20 rows); copied, the copy's `t1` reads nothing and the empty copy gives the
    /// original `false` (1 row).
    ///
    /// `passing`: nodes that pass a filter down in the wave under way (case 3); an edge of
    /// theirs that gets one is no wait.
    private static func breaksAWait(_ edge: Edge, _ run: any RunnerContext, onlyOnUnindexed: Bool = false,
                                    passing: [NodeID: Predicate] = [:]) -> Bool {
        let graph = run.graph
        let child = graph.child(at: edge)
        guard let members = graph.subtree(of: child, upTo: 64) else { return false }
        let inside = Set(members)
        for node in members where node != child && (!onlyOnUnindexed || isUnindexedSource(node, graph)) {
            for up in graph[node].parents where !inside.contains(up.parent) && !run.hasProvided(along: up) {
                if let passed = passing[up.parent], run.derivedFilter(passed, along: up) != nil { continue }
                if graph.subtree(of: up.parent, upTo: 256)?.contains(edge.parent) ?? false { return true }
            }
        }
        return false
    }

    /// Whether `node` is a source that no equality on one of its attributes fetches selectively.
    private static func isUnindexedSource(_ node: NodeID, _ graph: PlanGraph) -> Bool {
        guard case let .source(source) = graph[node].operation else { return false }
        return !graph[node].scheme.attributes.contains {
            source.canFetchSelectively(.comparison(.attribute($0), .equal, .value(.null)))
        }
    }

    /// Whether the parent at `edge` can give no filter along it but by passing its own active
    /// filter down (union, rename, project: a select gives its own predicate, the others
    /// make join and set-operand filters of their operands' rows), and never gets one.
    private static func neverProvides(_ edge: Edge, _ graph: PlanGraph, _ run: any RunnerContext,
                                      _ memo: inout [NodeID: Bool]) -> Bool {
        switch graph[edge.parent].operation {
        case .apply(.union), .apply(.rename), .apply(.project): return neverActivates(edge.parent, graph, run, &memo)
        case .apply(.select), .apply(.join), .apply(.intersection), .apply(.difference), .apply(.closure), .source, .dead:
            return false
        }
    }

    /// Whether the node's filter can never become active: it feeds an output (which counts
    /// as a parent that never provides), or some parent still waiting never provides.
    private static func neverActivates(_ node: NodeID, _ graph: PlanGraph, _ run: any RunnerContext,
                                       _ memo: inout [NodeID: Bool]) -> Bool {
        if let known = memo[node] { return known }
        memo[node] = false  // a DAG has no cycle; this only guards the recursion
        let state = run.filterState(of: node)
        let never = !state.isActive
            && (!graph[node].outputs.isEmpty
                || graph[node].parents.contains { !run.hasProvided(along: $0) && neverProvides($0, graph, run, &memo) })
        memo[node] = never
        return never
    }

    /// Case 2: the parent is passing its active filter down, and each waiting edge is
    /// another of its edges that gets the same filter from it.
    /// `waiting`: how many of `child`'s parents, other than `edge`, have not provided.
    private static func siblingsGiveTheSame(_ edge: Edge, _ child: NodeID, _ waiting: Int, _ graph: PlanGraph,
                                            _ run: any RunnerContext) -> Bool {
        guard waiting > 0, !run.hasProvided(along: edge) else { return false }
        let parent = run.filterState(of: edge.parent)
        guard parent.isActive, let filter = parent.filter, let given = run.derivedFilter(filter, along: edge) else {
            return false
        }
        for up in graph[child].parents where up != edge && !run.hasProvided(along: up) {
            guard up.parent == edge.parent, run.derivedFilter(filter, along: up) == given else { return false }
        }
        return run.filterState(of: child).remainingParents == waiting + 1
    }

    /// An OR's parts (a source may fetch an OR disjunct by disjunct, so the parts are asked
    /// one by one: one that fetches everything, such as `true`, is what the copy avoids).
    private static func disjuncts(_ filter: Predicate) -> [Predicate] {
        if case let .or(parts) = filter { return parts }
        return [filter]
    }

    /// Some other parent gave its filter before receiving one itself. (Case 2 also copies
    /// when another parent, active, may still narrow what it gave (`mayNarrowApart`). Issue
    /// 15, fourteenth round, seed 45 case 973: `shared = t0 select (35 > a)` under `shared
    /// join t1` (`t1` empty) and `t0 minus shared`, itself under a select and a join with the
    /// first. `select-pushdown` made the difference active at the start, so the empty join's
    /// `false`, given last, was OR-ed with the select's range and `t0` read 10 rows. Copied,
    /// the join's side reads nothing, the outer join's `false` then narrows the difference,
    /// and `t0` is read not at all, as without `select-pushdown`.)
    private func othersMayNarrow(_ child: NodeID, besides edge: Edge, _ run: any RunnerContext) -> Bool {
        run.graph[child].parents.contains { other in
            other != edge && run.hasProvided(along: other) && !run.filterState(of: other.parent).isActive
        }
    }

    /// Within the copy limit and what is left of the growth budget (a deep self-sharing DAG
    /// narrows edges thousands of times once the budget is spent; each would walk a subtree
    /// the runner then refuses to copy), and nothing in it has started or completed.
    private func copyable(_ node: NodeID, _ run: any RunnerContext) -> Bool {
        let room = min(limit, run.growthBudget.remaining)
        guard room > 0, let subtree = run.graph.subtree(of: node, upTo: room) else { return false }
        return !subtree.contains { run.hasStarted($0) || run.isComplete($0) }
    }
}

private extension Predicate {
    /// What this heuristic takes as matching nothing by pins: `pinnedValuesContradict`, or
    /// pins that rule out every part of an OR among the conjuncts (`pinsRuleOutAnOr`).
    var pinsMatchNothing: Bool { pinnedValuesContradict || pinsRuleOutAnOr }
}
