import Relational

/// Folds selects: a chain `x select p select q` over a shared `x` (read by another node too,
/// or an output), whose inner selects have no other reader (one parent, no output), becomes
/// one select, `x select (p and q)`; and a select whose predicate no row can meet
/// (`isUnsatisfiable`, `pinnedValuesContradict`) becomes `x select (false)`.
///
/// In a chain the outer select's filter can reach the inner select's edge before
/// `select-pushdown` gives that edge the inner predicate, and over a shared operand the
/// predicate is then added only when it contradicts the filter: `x` was read under `q`
/// alone. One select gives its edge both predicates at once. `self-operand-folding` leaves
/// such chains when it folds `x join (x select p)` under a select: hunt corpus seed 419 case
/// 1694 at `--rows 300`, `t2 select (b == -1) select (b <= 71)` with `t2` also read by a
/// join, read `t2` whole (61 rows against 2). Over an `x` the chain reads alone the inner
/// predicate is added at its turn anyway, and a chain stays: one select over a closure gave
/// the closure a filter it seeded from worse (the repro `hunt-s353-case1079`, `… closure [b
/// -> e] select (e == 60) select (… not (b != e) …)`, read 29 rows against 3).
///
/// Kept as a chain, an inner predicate met the outer one's filter on its edge, where
/// `select-pushdown` sees a contradiction; one select pushes its predicate down unexamined
/// (corpus seed 393 case 1555: `not (b >= null)`, which no value meets, under `b == 49`; the
/// join below read 68 rows). As `false` it reads nothing, and the operators above see an
/// empty operand (corpus seed 391 case 1015: `t0 select (a <= 2 and … and a >= x'')`
/// intersected with another select of `t0`, folded from `… intersect t0`, read 4 rows).
public struct SelectFolding: OptimizerPass {
    public let name = "select-folding"

    public init() {}

    public func run(_ graph: inout PlanGraph) -> Int {
        var changes = 0
        for id in graph.liveNodeIDs {
            while graph[id].isLive, case let .apply(.select(outer)) = graph[id].operation,
                let inner = Self.mergeableOperand(of: id, in: graph),
                case let .apply(.select(innerPredicate)) = graph[inner].operation {
                graph.nodes[id].operation = .apply(.select(.all([innerPredicate, outer])))
                graph.setChildren(of: id, to: graph[inner].children)
                OrphanCollection.collect(from: [inner], in: &graph)
                changes += 1
            }
            guard graph[id].isLive, case let .apply(.select(predicate)) = graph[id].operation,
                predicate != .false, predicate.isUnsatisfiable || predicate.pinnedValuesContradict
            else { continue }
            graph.nodes[id].operation = .apply(.select(.false))
            changes += 1
        }
        return changes
    }

    /// The operand of select `id` when it is a select that only `id` reads, over a node that
    /// something else reads too.
    private static func mergeableOperand(of id: NodeID, in graph: PlanGraph) -> NodeID? {
        guard graph[id].children.count == 1 else { return nil }
        let operand = graph[id].children[0]
        let node = graph[operand]
        guard operand != id, node.isLive, node.outputs.isEmpty, node.parents.count == 1, node.children.count == 1,
            case .apply(.select) = node.operation
        else { return nil }
        let below = graph[node.children[0]]
        guard !below.outputs.isEmpty || below.parents.contains(where: { $0.parent != operand }) else { return nil }
        return operand
    }
}
