import Relational

/// The joins of a graph whose two operands are sources (each straight under the join or
/// through selects, which keep its attributes) with a key pair whose columns' value ranges
/// (`SourceRelation.valueRange`) share no value: once either source is drained, its keys
/// filter the other to nothing and the join completes empty (`provably-empty-first`).
///
/// The joins of two sources are found once, in the graph a prepared query starts every run
/// with (`Heuristic.hooks(for:)`); which of them are disjoint is asked again at a run's start
/// only when a table's version changed or cannot be told (`SourceRelation.estimateVersion`).
/// Nodes a copy adds during a run are not looked at, and a join whose operands a copy
/// replaced is left out.
final class DisjointKeyJoins {
    struct Join {
        let node: NodeID
        /// The join's children when found.
        let operands: [NodeID]
        let sources: (NodeID, NodeID)
        /// Per source, whether it is read whole in any order: an output takes its rows
        /// through projections, renames and unions alone (`isReadWhole`).
        let readWhole: (Bool, Bool)
    }

    private struct SourceJoin {
        let join: Join
        let relations: (any SourceRelation, any SourceRelation)
        let pairs: [JoinPair]
        var versions: (Int?, Int?) = (nil, nil)
        var disjoint = false
    }

    private var sourceJoins: [SourceJoin] = []
    /// This run's disjoint joins (`refresh`).
    private(set) var disjoint: [Join] = []

    init() {}

    init(_ graph: PlanGraph) {
        for node in graph.nodes.indices {
            guard case let .apply(.join(pairs)) = graph[node].operation, !pairs.isEmpty, graph[node].children.count == 2
            else { continue }
            let operands = graph[node].children
            guard let left = Self.sourceThroughSelects(operands[0], graph), let right = Self.sourceThroughSelects(operands[1], graph),
                left.node != right.node
            else { continue }
            let join = Join(node: node, operands: operands, sources: (left.node, right.node),
                            readWhole: (Self.isReadWhole(left.node, graph), Self.isReadWhole(right.node, graph)))
            sourceJoins.append(SourceJoin(join: join, relations: (left.relation, right.relation), pairs: pairs))
        }
    }

    /// Whether the graph holds a join of two sources at all.
    var isEmpty: Bool { sourceJoins.isEmpty }

    /// Works out which joins are disjoint for a run about to pick its first source.
    func refresh() {
        var changed = false
        for i in sourceJoins.indices {
            // Read in place: a copy of the entry retains its two relations and pairs.
            let versions = (sourceJoins[i].relations.0.estimateVersion, sourceJoins[i].relations.1.estimateVersion)
            if let a = versions.0, let b = versions.1, sourceJoins[i].versions.0 == a, sourceJoins[i].versions.1 == b { continue }
            let entry = sourceJoins[i]
            sourceJoins[i].versions = versions
            sourceJoins[i].disjoint = entry.pairs.contains { pair in
                guard let a = entry.relations.0.valueRange(of: pair.left), let b = entry.relations.1.valueRange(of: pair.right)
                else { return false }
                return !a.overlaps(b)
            }
            changed = true
        }
        if changed { disjoint = sourceJoins.filter(\.disjoint).map(\.join) }
    }

    /// Whether an output takes a node's rows through projections, renames and unions alone
    /// (none of which filters what it reads, and an output is given no filter), within 32
    /// nodes.
    private static func isReadWhole(_ node: NodeID, _ graph: PlanGraph) -> Bool {
        var pending = [node]
        var visits = 0
        while let id = pending.popLast(), visits < 32 {
            visits += 1
            if !graph[id].outputs.isEmpty { return true }
            for up in graph[id].parents {
                switch graph[up.parent].operation {
                case .apply(.project), .apply(.rename), .apply(.union): pending.append(up.parent)
                default: continue
                }
            }
        }
        return false
    }

    private static func sourceThroughSelects(_ node: NodeID, _ graph: PlanGraph) -> (node: NodeID, relation: any SourceRelation)? {
        var node = node
        for _ in 0..<8 {
            switch graph[node].operation {
            case let .source(relation): return (node, relation)
            case .apply(.select): node = graph[node].children[0]
            default: return nil
            }
        }
        return nil
    }
}
