import QueryEngine
import Relational

/// A plug-in for `testbed hunt`, never in the standard catalog: `forced-initiator-order=K`
/// (K ≥ 1) drains the sources in the K-th permutation (lexicographic, counting from 1) of
/// their distinct names sorted, so every initiator order of a small graph can be tried.
/// Copies of a source take their original's place; a source the permutation does not name
/// comes last. It acts only through `chooseInitiator` and is listed first in the hunt's
/// catalog, so its choice wins over the flag set's own ordering. 0 switches it off.
public final class ForcedInitiatorOrder: Heuristic {
    public static let order = FlagKey<Int>("forced-initiator-order")

    public static let flags = [
        FlagSpec(
            name: order.name, kind: .integer(minimum: 0), allOn: .integer(0), allOff: .integer(0),
            meaning: "hunt only: drain sources in the K-th permutation of their sorted names; 0 off",
            laterThanSeed: true)
    ]

    let rank: Int
    private var position: [String: Int] = [:]

    init(rank: Int) { self.rank = rank }

    public static func make(_ flags: FlagSet) -> ForcedInitiatorOrder? {
        guard let k = flags[order], k > 0 else { return nil }
        return ForcedInitiatorOrder(rank: k - 1)
    }

    /// The engine catalog the hunt runs: this plug-in first, then `base`'s heuristics.
    public static func catalog(over base: HeuristicCatalog) -> HeuristicCatalog {
        HeuristicCatalog([ForcedInitiatorOrder.self] + base.heuristics.filter { ObjectIdentifier($0) != ObjectIdentifier(ForcedInitiatorOrder.self) })
    }

    public func nodesAdded(_ nodes: [NodeID], run: any RunnerContext) {
        guard position.isEmpty else { return }
        let names = Set(nodes.compactMap { Self.sourceName(of: $0, in: run.graph) }).sorted()
        for (i, name) in Permutations.nth(rank, of: names).enumerated() { position[name] = i }
    }

    public func chooseInitiator(from candidates: [NodeID], run: any RunnerContext) -> NodeID? {
        candidates.min { a, b in
            (Self.sourceName(of: a, in: run.graph).flatMap { position[$0] } ?? Int.max)
                < (Self.sourceName(of: b, in: run.graph).flatMap { position[$0] } ?? Int.max)
        }
    }

    static func sourceName(of node: NodeID, in graph: PlanGraph) -> String? {
        guard case let .source(source) = graph[node].operation else { return nil }
        return source.sourceName
    }
}

/// Permutations by lexicographic rank.
public enum Permutations {
    /// n! (saturating at Int.max).
    public static func count(_ n: Int) -> Int {
        var f = 1
        for k in stride(from: 2, through: max(n, 1), by: 1) {
            let (p, overflow) = f.multipliedReportingOverflow(by: k)
            if overflow { return Int.max }
            f = p
        }
        return f
    }

    /// The `rank`-th permutation (from 0, lexicographic by position) of `items`; ranks
    /// wrap around modulo `items.count`!.
    public static func nth<T>(_ rank: Int, of items: [T]) -> [T] {
        var pool = items
        var r = items.isEmpty ? 0 : rank % count(items.count)
        var out: [T] = []
        while !pool.isEmpty {
            let block = count(pool.count - 1)
            let i = r / block
            r %= block
            out.append(pool.remove(at: i))
        }
        return out
    }
}
