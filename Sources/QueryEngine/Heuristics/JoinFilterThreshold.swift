import Relational

/// `join-filter-threshold=N`: when a join has every row of one operand and there are at
/// most N of them, their join keys become a filter on the other operand (an IN-set: one
/// hash lookup per row, not an OR of N equalities), which can then fetch only matching
/// rows. 0 switches it off. Given to an operand that already has a filter, it narrows it.
public final class JoinFilterThreshold: Heuristic {
    /// The seed's threshold: 100 rows.
    static let defaultThreshold = 100

    public static let threshold = FlagKey<Int>("join-filter-threshold")

    public static let flags = [
        FlagSpec(
            name: threshold.name, kind: .integer(minimum: 0), allOn: .integer(defaultThreshold), allOff: .integer(0),
            meaning: "a join that has all rows of one operand, at most N of them, turns them into a filter on the other operand; 0 disables",
            alwaysListed: true)
    ]

    let limit: Int

    init(limit: Int) { self.limit = limit }

    public static func make(_ flags: FlagSet) -> JoinFilterThreshold? {
        guard let n = flags[threshold], n > 0 else { return nil }
        return JoinFilterThreshold(limit: n)
    }

    /// One instance serves every run: besides its settings it keeps only `keyAttributes`,
    /// which depends on the plan alone.
    public func instanceForRun() -> (any Heuristic)? { self }

    /// The filtered operand's key attributes per join (its pairs) and operand, worked out
    /// once per prepared query instead of mapped into a new list at every completion: a
    /// copy of a join shares its original's pairs, so comparing them is mostly a storage check.
    /// At most `keyAttributesLimit` entries (a plan has few joins); past that, mapped anew.
    private var keyAttributes: [(pairs: [JoinPair], operand: Int, attributes: [Attribute])] = []
    private static let keyAttributesLimit = 16

    private func attributes(of pairs: [JoinPair], operand: Int) -> [Attribute] {
        for entry in keyAttributes where entry.operand == operand && entry.pairs == pairs { return entry.attributes }
        let attributes = pairs.map { operand == 0 ? $0.left : $0.right }
        if keyAttributes.count < Self.keyAttributesLimit { keyAttributes.append((pairs, operand, attributes)) }
        return attributes
    }

    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.hasJoin ? .all : .none
    }

    public func operandCompleted(_ edge: Edge, run: any RunnerContext) {
        let graph = run.graph
        // The operation read in place (`graph.nodes[…]` copied the node) and the pairs bound
        // only once the cheap refusals have passed (binding copies them).
        guard case .apply(.join) = graph[edge.parent].operation else { return }
        let otherEdge = Edge(parent: edge.parent, operand: 1 - edge.operand)
        let other = graph.child(at: otherEdge)
        // The other side may already have a filter (it then narrows) or have received rows
        // from a source drained earlier; it is worth a filter while a source under it waits.
        guard !run.isComplete(other), run.hasUndrainedSource(below: other),
            case let .apply(.join(pairs)) = graph[edge.parent].operation
        else { return }
        let (keys, rows) = run.joinKeys(of: edge.parent, operand: edge.operand)
        guard rows <= limit, !pairs.isEmpty || rows == 0 else { return }
        let attributes = self.attributes(of: pairs, operand: otherEdge.operand)
        let filter: Predicate = keys.isEmpty ? .false : .inSet(attributes: attributes, keys: keys)
        run.counters.joinFiltersBuilt += 1
        run.provideFilter(filter, along: otherEdge)
    }
}
