import Relational

/// `join-conjunct-pushdown`: a join side that cannot read all of the join's filter (the
/// runner passes a join's filter to a side only whole) gets the part of it the side can read:
/// the conjuncts it reads, and of an OR the OR of what it reads of each disjunct (when it reads
/// something of every one). It does so when the join's filter activates and again each time
/// it narrows, narrowing a side's filter given earlier (a key filter, say).
///
/// Sound for the reason per-edge filters are: a joined row satisfying `A and B`, where `B`
/// reads only one side's attributes, comes from a row of that side satisfying `B`; one
/// satisfying `(A and B) or C` satisfies `B` or `C`, and so does its row of a side reading
/// `B` and `C`. The side may still deliver rows failing them, which the join's own filter
/// never passes. The hunt's case (issue 15, fifth round, seed 15 case 338, reduced): `(t3
/// join t0) select (e < c and c <= d and c < 0)`. The select reaches `t3` whole but not `t0`
/// (no `d`), so `t0` was read unfiltered; given `e < c and c < 0` it delivers nothing (its
/// lowest `c` is 3), and the join's empty side then keeps `t3` unread.
///
/// Tenth round (seed 22 case 860, seed 21 case 1412; reduced `(t0 join [e = b] t1) select (c
/// >= 14) join t2`): the select's predicate activates the inner join at the start; `t2`'s key
/// filter `a == 58` reaches it later as a narrowing (`late-filter-narrowing`), and the runner
/// passes the narrowed filter to neither side (each lacks an attribute of `c >= 14`), so `t0`
/// was read in full (19 rows against 1). Seed 21 case 891 (reduced `(shared intersect shared
/// select (e <= 33)) join t0`, `shared = t1 join t2`): the shared join's filter is the OR
/// `(e <= 33 and a == 70) or a == 70`, which no side reads whole; `t2` reads `a == 70` of
/// each disjunct (21 rows against 1).
///
/// Seventeenth session: when the other side is complete and small, the side gets the filter
/// bound to that side's rows (`partBound`), which reads more than `partRead` where an OR's
/// disjunct reads only the complete side (held-out seed 105 case 1968).
public final class JoinConjunctPushdown: Heuristic {
    public static let pushdown = FlagKey<Bool>("join-conjunct-pushdown")

    public static let flags = [
        FlagSpec(
            name: pushdown.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "a join side that cannot read all of the join's filter gets the conjuncts it can read, or, when the other side is complete and small, the filter bound to that side's rows",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> JoinConjunctPushdown? {
        flags.isOn(pushdown) ? JoinConjunctPushdown() : nil
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.hasJoin ? [.nodesAdded, .filterActivated, .filterNarrowed, .operandCompleted] : .none
    }

    /// At most this many rows of a complete operand are bound into the join's filter for
    /// the other side (`partBound`): one OR part per distinct binding.
    static let boundRowLimit = 16

    /// Before any source is drained, a join's filter activates while `select-pushdown` is
    /// still walking the graph parents first: parts given then would activate a select below
    /// before it gave its own predicate, and the select's edge, taken, would never get it. So
    /// the joins of added nodes get their parts once every heuristic before this one (last in
    /// the catalog) has seen the nodes. The hunt's case (issue 15, tenth round, seed 21 case
    /// 1563, reduced `(t1 join (t2 project [c, e] closure [e -> c] select (false))) select (e
    /// > b and c > 69)`): `c > 69` activated the inner select and flowed on to the closure
    /// before the select's `false` could, and `t1`'s key then had the closure read all of
    /// `t2` (20 rows against 0; 282 against 0 whole).
    public func nodesAdded(_ nodes: [NodeID], run: any RunnerContext) {
        // Only a join is given parts: the others are passed over with the graph read once
        // (`givePartsRead` reads it again, as a filter it provides may copy a subtree).
        // A node's operation never changes while the query runs.
        // A join added is seldom active yet: its state is read before the graph is again.
        let graph = run.graph
        for id in nodes {
            guard case .apply(.join) = graph[id].operation else { continue }
            let state = run.filterState(of: id)
            guard state.isActive, let filter = state.filter, !filter.isConstantTrue else { continue }
            givePartsRead(id, run)
        }
    }

    public func filterActivated(_ node: NodeID, run: any RunnerContext) {
        // Before the first drain every activation comes from `nodesAdded`'s walks.
        if !run.hasDrainedASource { return }
        givePartsRead(node, run)
    }

    public func filterNarrowed(_ node: NodeID, run: any RunnerContext) {
        givePartsRead(node, run)
    }

    /// A join operand completing lets the other side read more of an active filter (`partBound`).
    /// Only the other side can gain, and only while a source under it is undrained.
    public func operandCompleted(_ edge: Edge, run: any RunnerContext) {
        let state = run.filterState(of: edge.parent)
        guard state.isActive, let filter = state.filter, !filter.isConstantTrue else { return }
        let graph = run.graph
        guard case .apply(.join) = graph[edge.parent].operation else { return }
        let other = Edge(parent: edge.parent, operand: 1 - edge.operand)
        let child = graph.child(at: other)
        guard !run.isComplete(child), run.hasUndrainedSource(below: child), run.derivedFilter(filter, along: other) == nil,
            let bound = Self.partBound(filter, forOperand: other.operand, of: edge.parent, graph, run), !bound.isConstantTrue
        else { return }
        run.provideFilter(bound, along: other)
    }

    /// Along each edge the runner cannot pass the join's filter whole, provides what the side
    /// reads of it (an edge with a filter already narrows, while a source under it waits).
    private func givePartsRead(_ node: NodeID, _ run: any RunnerContext) {
        let graph = run.graph
        guard case .apply(.join) = graph[node].operation else { return }
        let state = run.filterState(of: node)
        guard state.isActive, let filter = state.filter, !filter.isConstantTrue else { return }
        for operand in graph[node].children.indices {
            let edge = Edge(parent: node, operand: operand)
            guard run.derivedFilter(filter, along: edge) == nil else { continue }
            let child = graph.child(at: edge)
            guard let readable = Self.partBound(filter, forOperand: operand, of: node, graph, run)
                ?? Self.partRead(of: filter, by: graph[child].scheme), !readable.isConstantTrue
            else { continue }
            if run.hasProvided(along: edge) {
                guard !run.isComplete(child), run.hasUndrainedSource(below: child) else { continue }
            }
            run.provideFilter(readable, along: edge)
        }
    }

    /// When the other operand is complete with at most `boundRowLimit` rows: the OR, over
    /// its rows, of the join's filter with that row's values bound to the attributes only
    /// it has (`Predicate.binding`), which reads this side's attributes alone. Sound: a
    /// joined row passing the filter pairs a row of this side with one of those rows, and
    /// passes the filter bound to it. Nil when a row leaves nothing to test (`true`).
    /// Held-out seed 105 case 1968: `shared = t2 join t3` under both operands of `shared
    /// join shared` and, renamed `a -> c`, a difference's right operand, the difference
    /// joined with `t0`. `t2` (one row, `c = 4.0`) was drained first; `t0`'s keys then
    /// reached `shared` as `c in {k12, k68}` from the self-join and `a in {k12, k68}`
    /// from the rename, an OR that neither side reads whole, so `t3` (299 rows, indexed on
    /// `a`) read the 14 rows `t2`'s key matched. Bound to `t2`'s row, the first disjunct is
    /// `false`, and `t3` reads `a in {k12, k68}` through its index: nothing (15 rows → 3).
    static func partBound(_ filter: Predicate, forOperand operand: Int, of join: NodeID, _ graph: PlanGraph,
                          _ run: any RunnerContext) -> Predicate? {
        let other = graph.child(at: Edge(parent: join, operand: 1 - operand))
        guard run.isComplete(other), let rows = run.operandRows(of: join, operand: 1 - operand, atMost: boundRowLimit)
        else { return nil }
        let own = graph.child(at: Edge(parent: join, operand: operand))
        let ownScheme = graph[own].scheme
        let onlyOther = graph[other].scheme.attributes.enumerated().filter { !ownScheme.contains($0.element) }
        var parts: [Predicate] = []
        for row in rows {
            var bound: [Attribute: Value] = [:]
            for (i, a) in onlyOther where i < row.count { bound[a] = row.values[i] }
            let part = filter.binding(bound)
            if part.isConstantTrue { return nil }
            if !parts.contains(part) { parts.append(part) }
        }
        let bound = Predicate.any(parts)
        return bound.attributes.allSatisfy(ownScheme.contains) ? bound : nil
    }

    /// The weakest predicate over `scheme`'s attributes that `filter` implies, as far as this
    /// syntactic walk finds one (nil: none): an AND keeps the parts read, an OR needs a part
    /// of every disjunct. The filter's own pins (`e == -1` among its conjuncts) are bound into
    /// its other conjuncts first: every row passing it has that value, so `e == -1 and ((58 <
    /// a and a == e) or e == 36)` reads `58 < a and a == -1` on a side without `e`, which
    /// matches nothing. Held-out seed 346 case 390 (`late-subtree-copying` asks this of a
    /// select's predicate to decide a copy): 29 rows read against 1.
    static func partRead(of filter: Predicate, by scheme: Scheme) -> Predicate? {
        guard case let .and(parts) = filter else { return readPart(of: filter, by: scheme) }
        var pins: [Attribute: Value] = [:]
        var others: [Predicate] = []
        for part in parts {
            switch part {
            case let .comparison(.attribute(a), .equal, .value(v)), let .comparison(.value(v), .equal, .attribute(a)): pins[a] = v
            default: others.append(part)
            }
        }
        // Only conjuncts that read a pinned attribute change; with none, the filter reads as it is.
        let bound = others.filter { !$0.attributes.isDisjoint(with: pins.keys) }.map { $0.binding(pins) }
        guard !bound.isEmpty else { return readPart(of: filter, by: scheme) }
        return readPart(of: .all(parts + bound), by: scheme)
    }

    private static func readPart(of filter: Predicate, by scheme: Scheme) -> Predicate? {
        switch filter {
        case .constant:
            return filter
        case let .and(parts):
            let read = parts.compactMap { readPart(of: $0, by: scheme) }
            return read.isEmpty ? nil : .all(read)
        case let .or(parts):
            var read: [Predicate] = []
            for part in parts {
                guard let r = readPart(of: part, by: scheme) else { return nil }
                if !read.contains(r) { read.append(r) }
            }
            return .any(read)
        case .comparison, .not, .inSet:
            let attributes = filter.attributes
            return !attributes.isEmpty && attributes.allSatisfy(scheme.contains) ? filter : nil
        }
    }
}
