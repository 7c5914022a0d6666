import Relational

/// `join-conjunct-pushdown`: when a join's filter activates, a side that cannot read all
/// of it (the runner passes a join's filter to a side only whole) gets the conjuncts it can
/// read.
///
/// Sound for the reason per-edge filters are: a joined row satisfying `A and B`, where `B`
/// reads only one side's attributes, comes from a row of that side satisfying `B`; the side
/// may still deliver rows failing `B`, which the join's own filter never passes. The hunt's
/// case (issue 15, fifth round, seed 15 case 338, reduced): `(t3 join t0) select (e < c and
/// c <= d and c < 0)`. The select reaches `t3` whole but not `t0` (no `d`), so `t0` was read
/// unfiltered; given `e < c and c < 0` it delivers nothing (its lowest `c` is 3), and the
/// join's empty side then keeps `t3` unread.
public final class JoinConjunctPushdown: Heuristic {
    public static let pushdown = FlagKey<Bool>("join-conjunct-pushdown")

    public static let flags = [
        FlagSpec(
            name: pushdown.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "a join side that cannot read all of the join's filter gets the conjuncts it can read",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> JoinConjunctPushdown? {
        flags.isOn(pushdown) ? JoinConjunctPushdown() : nil
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.hasJoin ? .filterActivated : .none
    }

    public func filterActivated(_ node: NodeID, run: any RunnerContext) {
        let graph = run.graph
        guard case .apply(.join) = graph[node].operation else { return }
        let state = run.filterState(of: node)
        guard state.isActive, let filter = state.filter, filter != .true else { return }
        for operand in graph[node].children.indices {
            let edge = Edge(parent: node, operand: operand)
            guard !run.hasProvided(along: edge), run.derivedFilter(filter, along: edge) == nil else { continue }
            let scheme = graph[graph.child(at: edge)].scheme
            let readable = filter.conjuncts.filter { !$0.attributes.isEmpty && $0.attributes.allSatisfy(scheme.contains) }
            guard !readable.isEmpty else { continue }
            run.provideFilter(.all(readable), along: edge)
        }
    }
}
