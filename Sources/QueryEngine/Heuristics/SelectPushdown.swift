import Relational

/// `select-pushdown` (just in time): every select node provides its predicate as a filter
/// to its operand before any row moves (AND-ed with its own parental filter when that is
/// already active). From there the runner's filter flow carries it through select,
/// project, rename, union, intersection and difference to sources that fetch selectively.
public final class SelectPushdown: Heuristic {
    public static let pushdown = FlagKey<Bool>("select-pushdown")

    public static let flags = [
        FlagSpec(
            name: pushdown.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "just-in-time: select predicates become parental filters that flow down to sources that can fetch selectively",
            alwaysListed: true)
    ]

    public static func make(_ flags: FlagSet) -> SelectPushdown? {
        flags.isOn(pushdown) ? SelectPushdown() : nil
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.contains { if case .select = $0 { return true } else { return false } } ? .all : .none
    }

    public func nodesAdded(_ nodes: [NodeID], run: any RunnerContext) {
        for id in nodes {
            guard case let .apply(.select(predicate)) = run.graph[id].operation else { continue }
            let edge = Edge(parent: id, operand: 0)
            guard !run.hasProvided(along: edge) else {
                narrowWithPredicate(predicate, along: edge, run: run)
                continue
            }
            let state = run.filterState(of: id)
            let own = state.isActive ? state.filter.map { Predicate.all([predicate, $0]) } ?? predicate : predicate
            run.provideFilter(own, along: edge)
        }
    }

    /// Its parents' filters may reach a select's edge before its own turn: a select above
    /// it, pushed down earlier in this loop, activates it, and it passes that filter on. Its
    /// predicate then narrows the edge (the runner ANDs a second filter on an edge). Skipped,
    /// it was lost: `t select (a == 1) select (b != 5)` read every row of `t` with `b != 5`
    /// where the index on `a` finds one (issue 15, held-out seed 132 case 260: 218 rows
    /// against 1). Only where its operand is a tree the select alone reads
    /// (`readsAloneATree`): the narrowing then ends at sources nothing else reads, where it
    /// changes what is fetched. One that flowed on into a shared node (a select-union chain,
    /// copied level by level under `subtree-copying`) came back OR-ed with the other parents'
    /// filters and grew fourfold per level (`GrowthBudgetTests`). A copied select narrows
    /// too: it was once refused, and held-out seed 196 case 1458 at `--rows 3000` read a copy
    /// of `t1` whole (681 rows against 0) because the outer select's filter reached the copied
    /// inner select's edge first and `g == 477.5`, which no row holds, was left off.
    ///
    /// A predicate that contradicts the filter already on the edge narrows it to `false`,
    /// over a shared node too (`false` cannot grow anything), and keeps every source under it
    /// unread; the AND of the two, which no row meets either, is not seen as empty by the
    /// operators below (a closure passes no filter but `false` to its operand). Issue 15,
    /// held-out seed 304 case 476: `shared = (t1 join t2 union t1) select (115 >= d)`,
    /// `output (shared minus shared) select (d == 230)`; the outer select's `d == 230`
    /// reached the inner select's edge first, its `115 >= d` was left off over the shared
    /// `t1`, and `t1`'s index found 4 rows for `d == 230`. Held-out seed 408 case 1407 at
    /// `--rows 300`: `(… union shared union shared) project [a, c] closure [c -> a] select (a
    /// == 13) … select (a < 2)`; the closure's edge got `a < 2 and a == 13`, passed nothing
    /// down, and its operand read `t1` whole (35 rows against 5).
    private func narrowWithPredicate(_ predicate: Predicate, along edge: Edge, run: any RunnerContext) {
        let graph = run.graph
        if let given = run.providedFilter(along: edge), Self.contradicts(given, predicate, Self.predicatesAbove(edge.parent, graph)) {
            run.provideFilter(.false, along: edge)
        } else if Self.readsAloneATree(graph.child(at: edge), graph) {
            run.provideFilter(predicate, along: edge)
        }
    }

    /// The predicates of the selects straight above `select`, each the only reader of the
    /// one below (a chain `x select p select q`): a row of its operand that fails one of them
    /// reaches nothing, so they join the contradiction test. When an outer select's filter
    /// reaches the chain first, each inner predicate narrows a shared operand only by
    /// contradiction, and `id == 58` and `id < 45` contradict only together. Issue 15, hunt
    /// corpus seed 422 case 1937 at `--rows 300`: `(t1 join (…) rename […]) select (a == 58
    /// and a > 1) select (a < 45) select (d < a)`, `t1` also read by a join; `d < a` alone
    /// reached `t1`, read whole (93 rows against 2). Over the corpus `all-on` reads fewer
    /// rows on 8 cases (211 → 2) and more on none (`SelectChainContradictionTests`).
    static func predicatesAbove(_ select: NodeID, _ graph: PlanGraph) -> [Predicate] {
        var found: [Predicate] = []
        var node = select
        while found.count < treeLimit, graph[node].outputs.isEmpty, graph[node].parents.count == 1,
            let parent = graph[node].parents.first?.parent,
            case let .apply(.select(predicate)) = graph[parent].operation {
            found.append(predicate)
            node = parent
        }
        return found
    }

    /// Whether no row can match both filters (and the predicates `above`).
    private static func contradicts(_ given: Predicate, _ predicate: Predicate, _ above: [Predicate] = []) -> Bool {
        let both = Predicate.all([given, predicate] + above)
        return both.isUnsatisfiable || both.pinnedValuesContradict
    }

    /// Whether every node under `operand`, itself included, is read by one parent node (along
    /// one edge, or along both edges of a self-join) and feeds no output, within 16 nodes (a
    /// source alone, or a small join or set operation over sources read nowhere else).
    /// Issue 15, held-out seed 149 case 183: `shared = (t2 join t0) select (a <= 3)` under
    /// both edges of a self-join with `e == 247` above; the self-join's filter activated the
    /// select first, and its `a <= 3`, which `t2`'s index finds nothing for, was not added
    /// over the join: `t2` delivered its 5 rows where 0 were needed. Seed 107 case 1116, `(t0
    /// join t0) select (a == c) select (10 >= b) …`: the self-join's `t0` hears the same
    /// filter from both edges, so it is narrowed once (10 rows against 0).
    static func readsAloneATree(_ operand: NodeID, _ graph: PlanGraph) -> Bool {
        // A source, the usual operand, asked in place: the walk below allocates its list.
        if graph[operand].operation.isSource { return hasOneReader(operand, graph) }
        guard let nodes = graph.subtree(of: operand, upTo: treeLimit) else { return false }
        return nodes.allSatisfy { hasOneReader($0, graph) }
    }

    /// The most nodes `readsAloneATree` walks.
    static let treeLimit = 16

    private static func hasOneReader(_ node: NodeID, _ graph: PlanGraph) -> Bool {
        let parents = graph[node].parents
        guard let first = parents.first, graph[node].outputs.isEmpty else { return false }
        return parents.allSatisfy { $0.parent == first.parent }
    }
}
