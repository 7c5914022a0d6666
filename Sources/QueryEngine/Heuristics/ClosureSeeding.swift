import Relational

/// `closure-seeding`: just-in-time seeding of transitive closures (magic sets, round by
/// round). When a closure's parental filter pins its `from` attribute to a set of start
/// values, the closure computes only the pairs reachable from them: each round asks its
/// edge source for the edges leaving the frontier, so an indexed source fetches only those
/// rows. A filter pinning `to` seeds the search backwards when the source can fetch by
/// `to`. A shared node in the edge chain (the documents table, say) is first copied for the closure (within the growth budget).
/// A filter that provably matches nothing needs no pair, so no edge: the closure then
/// gives its operand `false` (the runner passes no filter through a closure).
/// Off, the whole closure is computed and then filtered.
public final class ClosureSeeding: Heuristic {
    public static let seeding = FlagKey<Bool>("closure-seeding")

    public static let flags = [
        FlagSpec(
            name: seeding.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "a closure whose filter pins its start (or end) values fetches only the edges reachable from them, frontier by frontier; a closure whose filter provably matches nothing gives its operand false",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> ClosureSeeding? {
        flags.isOn(seeding) ? ClosureSeeding() : nil
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.contains { if case .closure = $0 { return true } else { return false } } ? .all : .none
    }

    public func filterActivated(_ node: NodeID, run: any RunnerContext) {
        seed(node, run)
    }

    /// A filter that activated unpinned (a select's `true` above the closure, pushed at the
    /// start) may be narrowed later by one that pins the start values (a join's key filter,
    /// passed down by `late-filter-narrowing`). Issue 15's hunt: `t1 join ((t0 project [a, e])
    /// closure [a -> e] select (true))` read all of `t0` (155 rows against 8 in the full
    /// case) because seeding was tried only on activation.
    public func filterNarrowed(_ node: NodeID, run: any RunnerContext) {
        seed(node, run)
    }

    private func seed(_ node: NodeID, _ run: any RunnerContext) {
        guard case .apply(.closure) = run.graph[node].operation else { return }
        if Self.needsNoEdge(node, run) { return }
        if case let .shared(edge) = run.driveOperandOnDemand(node), run.copySubtree(along: edge) != nil {
            _ = run.driveOperandOnDemand(node)
        }
    }

    /// Gives the closure's operand `false` when the closure's active filter provably matches
    /// nothing: `false`, or conjuncts that contradict (`Predicate.conjunctsContradict`), such
    /// as a select's pin and a join's keys that miss it. Issue 15, thirty-ninth session,
    /// held-out seed 388 case 811 at `--rows 300`: `t1 join [b = d] (((t0 union t0 rename
    /// […]) closure [d -> c] select (d == 41.0 or d == 72) union t0) join t0 closure [d ->
    /// c] select (d == 13.0 or d == 52))`; the second closure's one row reached the first
    /// closure as `c == 70 and d == 52`, against its select's `d == 41.0 or d == 72`, and
    /// the union under it, not searched on demand, read `t0` whole (36 rows against 2).
    private static func needsNoEdge(_ node: NodeID, _ run: any RunnerContext) -> Bool {
        let state = run.filterState(of: node)
        guard state.isActive, let filter = state.filter, filter.isUnsatisfiable || filter.conjunctsContradict else { return false }
        let edge = Edge(parent: node, operand: 0)
        if run.providedFilter(along: edge)?.isUnsatisfiable != true, !run.isComplete(run.child(at: edge)) {
            run.provideFilter(.false, along: edge)
        }
        return true
    }
}
