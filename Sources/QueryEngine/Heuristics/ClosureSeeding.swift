import Relational

/// `closure-seeding`: just-in-time seeding of transitive closures (magic sets, round by
/// round). When a closure's parental filter pins its `from` attribute to a set of start
/// values, the closure computes only the pairs reachable from them: each round asks its
/// edge source for the edges leaving the frontier, so an indexed source fetches only those
/// rows. A filter pinning `to` seeds the search backwards when the source can fetch by
/// `to`. A shared node in the edge chain (the documents table, say) is first copied for the closure (within the growth budget).
/// Off, the whole closure is computed and then filtered.
public final class ClosureSeeding: Heuristic {
    public static let seeding = FlagKey<Bool>("closure-seeding")

    public static let flags = [
        FlagSpec(
            name: seeding.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "a closure whose filter pins its start (or end) values fetches only the edges reachable from them, frontier by frontier",
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
        if case let .shared(edge) = run.driveOperandOnDemand(node), run.copySubtree(along: edge) != nil {
            _ = run.driveOperandOnDemand(node)
        }
    }
}
