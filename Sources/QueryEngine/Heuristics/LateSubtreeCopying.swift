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
            meaning: "copy a node's subtree for a parent whose selective filter would be lost: one narrowing what it gave while the node waits on others, or the last to provide when the others' filters fetch everything",
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

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    /// Both cases need a node waiting on two parents.
    public func hooks(for graph: PlanGraph) -> HeuristicHooks { graph.hasSharedNode ? .all : .none }

    public func willNarrowFilter(_ filter: Predicate, along edge: Edge, run: any RunnerContext) {
        guard filter != .true else { return }
        let child = run.graph.child(at: edge)
        let state = run.filterState(of: child)
        guard !state.isActive, state.remainingParents > 0, copyable(child, run),
            SubtreeCopying.reachesSelectiveSource(child, filter, run)
        else { return }
        run.copySubtree(along: edge)
    }

    public func willProvideFilter(_ filter: Predicate, along edge: Edge, run: any RunnerContext) {
        guard filter != .true else { return }
        let child = run.graph.child(at: edge)
        // With two or more parents waiting, the seed's `subtree-copying` decides.
        let state = run.filterState(of: child)
        guard state.remainingParents == 1, let others = state.filter,
            othersMayNarrow(child, besides: edge, run), copyable(child, run),
            SubtreeCopying.reachesSelectiveSource(child, filter, run),
            Self.disjuncts(others).contains(where: { !SubtreeCopying.reachesSelectiveSource(child, $0, run) })
        else { return }
        run.copySubtree(along: edge)
    }

    /// An OR's parts (a source may fetch an OR disjunct by disjunct, so the parts are asked
    /// one by one: one that fetches everything, such as `true`, is what the copy avoids).
    private static func disjuncts(_ filter: Predicate) -> [Predicate] {
        if case let .or(parts) = filter { return parts }
        return [filter]
    }

    /// Some other parent gave its filter before receiving one itself.
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
