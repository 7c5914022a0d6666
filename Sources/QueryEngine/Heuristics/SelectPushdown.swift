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
            guard !run.hasProvided(along: edge) else { continue }
            let state = run.filterState(of: id)
            let own = state.isActive ? state.filter.map { Predicate.all([predicate, $0]) } ?? predicate : predicate
            run.provideFilter(own, along: edge)
        }
    }
}
