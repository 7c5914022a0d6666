import Relational

/// The `counted` mode's maintained dataflow: one node per relation (by identity, so a
/// subexpression shared by queries or observations is one node), built at observe time with
/// whatever state its rule keeps, and updated once per committed transaction bottom-up.
/// A one-row change then costs a few hash probes, not an engine run.
///
/// Nodes keep as little as they can: select, rename, union, intersection, difference and
/// join keep nothing (their rules probe their operands); project keeps a count per output
/// row (none when it keeps a declared key); sources are probed through their indexes. A
/// node a parent must probe but that cannot answer (a join or closure probed by values, a
/// source without an index on the attributes) gets a maintained copy with hash indexes on
/// the probed attributes. Closure is re-evaluated by the engine when its operand changes.
final class CountedDataflow {
    let context: CountedContext
    private let keys: RelationKeys
    private var nodes: [ObjectIdentifier: any CountedNode] = [:]
    private var copies: [ObjectIdentifier: CountedMaterialized] = [:]
    /// Every node, operands before the nodes built on them.
    private var order: [any CountedNode] = []

    init(engine: QueryEngine, keys: [ObjectIdentifier: [[Attribute]]]) {
        context = CountedContext(engine: engine)
        self.keys = RelationKeys(declared: keys)
    }

    /// Rows held by the dataflow's state: project counts, maintained copies (one entry per
    /// row per index) and closures' copies.
    var stateRows: Int {
        order.reduce(0) { sum, node in
            if let p = node as? CountedProject { return sum + p.keptRows }
            if let m = node as? CountedMaterialized { return sum + m.keptRows }
            if let c = node as? CountedClosureRequery { return sum + c.keptRows }
            return sum
        }
    }

    /// The node maintaining `relation`, built (with its state) when first asked.
    @discardableResult
    func node(for relation: Relation) throws -> any CountedNode {
        if let known = nodes[ObjectIdentifier(relation)] { return known }
        let built: any CountedNode
        switch relation.definition {
        case let .source(source):
            built = CountedSourceNode(relation: relation, source: source, context: context)
        case let .apply(op, operands):
            let children = try operands.map { try node(for: $0) }
            switch op {
            case let .select(predicate):
                built = try CountedSelect(relation: relation, operand: children[0], predicate: predicate, context: context)
            case let .rename(map):
                built = try CountedRename(relation: relation, operand: children[0], map: map, context: context)
            case let .project(kept):
                built = try CountedProject(relation: relation, operand: children[0],
                                           keepsKey: keys.hasKey(operands[0], within: kept), context: context)
            case .union:
                built = CountedUnion(relation: relation, operands: try children.map(containable), context: context)
            case .intersection:
                built = CountedMembershipFilter(relation: relation, left: try containable(children[0]),
                                                right: try containable(children[1]), keptWhenInRight: true, context: context)
            case .difference:
                built = CountedMembershipFilter(relation: relation, left: try containable(children[0]),
                                                right: try containable(children[1]), keptWhenInRight: false, context: context)
            case let .join(pairs):
                let leftKey = try pairs.map { try children[0].scheme.requireIndex(of: $0.left, context: "counted join") }
                let rightKey = try pairs.map { try children[1].scheme.requireIndex(of: $0.right, context: "counted join") }
                built = try CountedJoin(relation: relation, left: try probeable(children[0], leftKey),
                                        right: try probeable(children[1], rightKey), pairs: pairs, context: context)
            case .closure:
                built = try CountedClosureRequery(relation: relation, operand: children[0], context: context)
            }
        }
        nodes[ObjectIdentifier(relation)] = built
        order.append(built)
        return built
    }

    /// `node`, or a maintained copy of it when it cannot tell whether it holds a row.
    private func containable(_ node: any CountedNode) throws -> CountedNode {
        node.canContain ? node : try copy(of: node)
    }

    /// `node`, or a maintained copy indexed on `positions` when it cannot be probed there.
    private func probeable(_ node: any CountedNode, _ positions: [Int]) throws -> CountedNode {
        if node.canProbe(positions) { return node }
        let c = try copy(of: node)
        c.addIndex(positions)
        return c
    }

    private func copy(of node: any CountedNode) throws -> CountedMaterialized {
        if let m = node as? CountedMaterialized { return m }
        let key = ObjectIdentifier(node.relation)
        if let known = copies[key] { return known }
        let made = try CountedMaterialized(node, context: context)
        copies[key] = made
        order.append(made)
        return made
    }

    /// Applies one committed transaction: every node's delta, bottom-up. Returns the deltas
    /// of `observed` (each must have a node), in order. On a throw the state is unusable
    /// (some nodes updated, others not); the caller drops the dataflow.
    func propagate(_ deltas: [SourceDelta], observed: [Relation]) throws -> [CountedDelta] {
        context.sourceDeltas = [:]
        for d in deltas where !d.isEmpty { context.sourceDeltas[ObjectIdentifier(d.source)] = d }
        context.rowsRead = 0
        context.runs = RunLog()
        defer {
            for n in order { n.clearDelta() }
            context.sourceDeltas = [:]
        }
        for n in order { try n.update() }
        return try observed.map { try node(for: $0).delta }
    }
}
