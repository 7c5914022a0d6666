import QueryEngine
import Relational

/// A deliberately wrong heuristic for testing the fuzzer and reducer: like
/// `join-filter-threshold=100`, but the filter it builds leaves out the first join key, so
/// the other operand loses the rows matching it.
final class BrokenJoinFilter: Heuristic {
    static let broken = FlagKey<Bool>("broken-join-filter")

    static let flags = [
        FlagSpec(name: broken.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
                 meaning: "test only: a join filter that drops a key")
    ]

    static func make(_ flags: FlagSet) -> BrokenJoinFilter? {
        flags.isOn(broken) ? BrokenJoinFilter() : nil
    }

    func operandCompleted(_ edge: Edge, run: any RunnerContext) {
        guard case let .apply(.join(pairs)) = run.graph[edge.parent].operation, !pairs.isEmpty else { return }
        let otherEdge = Edge(parent: edge.parent, operand: 1 - edge.operand)
        let other = run.graph.child(at: otherEdge)
        guard !run.hasProvided(along: otherEdge), !run.hasStarted(other), !run.isComplete(other) else { return }
        let (keys, rows) = run.joinKeys(of: edge.parent, operand: edge.operand)
        guard rows >= 1, rows <= 100 else { return }
        let attributes = pairs.map { otherEdge.operand == 0 ? $0.left : $0.right }
        let filter = Predicate.any(keys.sorted().dropFirst().map { key in
            Predicate.all(zip(attributes, key.values).map { .comparison(.attribute($0), .equal, .value($1)) })
        })
        run.provideFilter(filter, along: otherEdge)
    }

    /// The standard catalog with the join filter swapped for this one.
    static var catalog: HeuristicCatalog {
        HeuristicCatalog([UnionFlattening.self, SelectPushdown.self, BrokenJoinFilter.self,
                          InitiatorOrdering.self, SubtreeCopying.self])
    }
}
