import Relational

/// `late-filter-narrowing`: when a node's parental filter becomes active after the node
/// already gave a child a filter of its own (a select's predicate from `select-pushdown`, a
/// join's key filter), the parental filter, rewritten for that child, narrows that edge too.
///
/// The runner passes an active filter only along edges that have none yet, so a select
/// that pushed its own predicate at the start never passes on what its parents ask for
/// later. The hunt's largest class (issue 15): `t1 select (true) join t0` with `t0` empty.
/// `t0` is drained first, the join's empty key filter (`false`) reaches the select, but
/// the select's edge already carries `true`, and all of `t1` is read. The same happens to
/// a copy made by `subtree-copying`: the copy's select pushes its predicate as the copy is
/// added, before the filter the copy was made for arrives. Narrowing is sound for the same
/// reason the runner's per-edge narrowing is: the node needs only rows passing both its
/// own filter and the one derived from its parents'.
public final class LateFilterNarrowing: Heuristic {
    public static let narrowing = FlagKey<Bool>("late-filter-narrowing")

    public static let flags = [
        FlagSpec(
            name: narrowing.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "a parental filter that becomes active after a node filtered a child itself (a select's predicate, a join filter) narrows that child's filter too",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> LateFilterNarrowing? {
        flags.isOn(narrowing) ? LateFilterNarrowing() : nil
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func filterActivated(_ node: NodeID, run: any RunnerContext) {
        // The graph read once, and again only after a filter was provided (which may copy a
        // subtree, changing a child): each read copies the runner's node lists.
        var graph = run.graph
        guard case .apply = graph[node].operation, let filter = run.filterState(of: node).filter else { return }
        if Self.matchesNothing(filter, at: node, graph) {
            passNothing(node, run)
            graph = run.graph
        }
        // A closure fetching its operand on demand asks its source by key itself.
        if case .apply(.closure) = graph[node].operation { return }
        for operand in graph[node].children.indices {
            let edge = Edge(parent: node, operand: operand)
            guard run.hasProvided(along: edge), run.hasUndrainedSource(below: graph.child(at: edge)),
                let derived = run.derivedFilter(filter, along: edge), !derived.isConstantTrue
            else { continue }
            run.provideFilter(derived, along: edge)
            graph = run.graph
        }
    }

    /// A node whose filter narrowed to `false` needs no rows at all (`passNothing`).
    public func filterNarrowed(_ node: NodeID, run: any RunnerContext) {
        if let filter = run.filterState(of: node).filter, Self.matchesNothing(filter, at: node, run.graph) {
            passNothing(node, run)
        }
    }

    /// `false`, or at a closure (which passes no other filter) conjuncts that contradict
    /// (`Predicate.conjunctsContradict`), such as a select's pin and a join's keys that miss
    /// it. Issue 15, thirty-ninth session, held-out seed 388 case 811 at `--rows 300`: `t1
    /// join [b = d] (((t0 union t0 rename […]) closure [d -> c] select (d == 41.0 or d ==
    /// 72) union t0) join t0 closure [d -> c] select (d == 13.0 or d == 52))`; the second
    /// closure's one row reached the first as `c == 70 and d == 52`, against its select's
    /// pin, and the union under it read `t0` whole (36 rows against 2).
    ///
    /// An OR each of whose disjuncts so contradicts matches nothing too (its parents' filters
    /// ORed, each narrowed by the same keys). Issue 15, fortieth session, held-out seed 515
    /// case 148 at `--rows 300`: `shared = t0 project [b, c] closure [b -> c]` under `(shared
    /// select (b == 11 or b == 5) union shared) join t1`, joined with `t2`; `t1`'s key `c ==
    /// "k14"` and `t2`'s 84 keys, none of them "k14", reached the closure through both of the
    /// union's operands as an OR of two contradicting conjunctions, and `t0` (298 rows,
    /// indexed on `d` only) was read whole (383 rows against 84).
    private static func matchesNothing(_ filter: Predicate, at node: NodeID, _ graph: PlanGraph) -> Bool {
        if filter == .constant(false) { return true }
        guard case .apply(.closure) = graph[node].operation else { return false }
        return contradicts(filter)
    }

    private static func contradicts(_ filter: Predicate) -> Bool {
        if filter.isUnsatisfiable || filter.conjunctsContradict { return true }
        if case let .or(parts) = filter { return parts.allSatisfy(contradicts) }
        return false
    }

    /// A node whose filter is `false` needs no row from any operand, but the runner passes
    /// it only where the filter can be rewritten for the operand, never through a closure.
    /// The hunt's case (issue 15, sixth round, seed 16 case 525, 5 rows against 1): the
    /// empty side of a join narrowed the other side's filter to `false` down to a closure
    /// over `t1`, which then read all of `t1`. Given `false`, the closure's operand reads
    /// nothing (unless it has started, or a closure fetches it on demand).
    private func passNothing(_ node: NodeID, _ run: any RunnerContext) {
        for operand in run.graph[node].children.indices {
            let edge = Edge(parent: node, operand: operand)
            let child = run.graph.child(at: edge)
            guard run.derivedFilter(.constant(false), along: edge) == nil, !run.hasStarted(child),
                run.hasUndrainedSource(below: child)
            else { continue }
            run.provideFilter(.constant(false), along: edge)
        }
    }
}
