import Relational

/// `join-filter-pushdown` with `join-filter-pushdown-max-keys`: a join operand that is
/// complete but has more rows than `join-filter-threshold` allows still becomes a filter
/// on the other operand (if that has not started, or a source under it is still
/// undrained), as DuckDB's min-max join filters and
/// DataFusion's IN-list pushdown do: an IN-set of its distinct keys when there are at most
/// `max-keys` of them, otherwise a min-max range per key attribute (in the total value
/// order, which join equality agrees with). It runs after `join-filter-threshold`, so it
/// only acts where that one did not provide.
///
/// An IN-set is built only with fewer keys than the rows the other operand's sources are
/// estimated to have left to deliver (`RunnerContext.rowsLeftToRead`): one of more keys
/// costs more to build and pass down than it can save, so the cheap range goes instead.
///
/// The seed's threshold of 100 rows dates from filters written as ORs of equalities; an
/// IN-set costs one hash lookup per row, and a range two comparisons, so a large complete
/// side is worth turning into a filter: every row it keeps out is a row not read.
public final class JoinFilterPushdown: Heuristic {
    static let defaultMaxKeys = 10_000

    public static let pushdown = FlagKey<Bool>("join-filter-pushdown")
    public static let maxKeys = FlagKey<Int>("join-filter-pushdown-max-keys")

    public static let flags = [
        FlagSpec(
            name: pushdown.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "a complete join operand above join-filter-threshold still filters the other operand: an IN-set of its keys, or a min-max range when they are many",
            laterThanSeed: true),
        FlagSpec(
            name: maxKeys.name, kind: .integer(minimum: 0), allOn: .integer(defaultMaxKeys),
            allOff: .integer(defaultMaxKeys),
            meaning: "join-filter-pushdown builds an IN-set of at most this many distinct keys; above it a min-max range per key attribute (0: always a range)",
            laterThanSeed: true),
    ]

    let maxKeys: Int

    init(maxKeys: Int) { self.maxKeys = maxKeys }

    public static func make(_ flags: FlagSet) -> JoinFilterPushdown? {
        guard flags.isOn(pushdown) else { return nil }
        return JoinFilterPushdown(maxKeys: flags[maxKeys] ?? defaultMaxKeys)
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.hasJoin ? .all : .none
    }

    public func operandCompleted(_ edge: Edge, run: any RunnerContext) {
        let graph = run.graph
        // The pairs are bound only once the cheap refusals have passed (binding copies them).
        guard case .apply(.join) = graph[edge.parent].operation else { return }
        let otherEdge = Edge(parent: edge.parent, operand: 1 - edge.operand)
        let other = graph.child(at: otherEdge)
        // As join-filter-threshold: an operand that has started (rows from a shared source
        // drained for another parent) is still worth a filter while a source under it waits,
        // and one that already has a filter (a select's, `join-conjunct-pushdown`'s conjuncts)
        // but no key filter narrows. (Issue 15, sixth round, seed 16 case 481: the conjuncts took the edge and
        // the 277 keys were refused; 569 rows read against 300.)
        guard !Self.hasKeyFilter(run.providedFilter(along: otherEdge)), !run.isComplete(other),
              !run.hasStarted(other) || run.hasUndrainedSource(below: other),
              case let .apply(.join(pairs)) = graph[edge.parent].operation, !pairs.isEmpty else { return }
        let (keys, _) = run.joinKeys(of: edge.parent, operand: edge.operand)
        let attributes = pairs.map { otherEdge.operand == 0 ? $0.left : $0.right }
        let filter: Predicate
        if keys.isEmpty {
            filter = .false
        } else if keys.count <= maxKeys, keys.count < run.rowsLeftToRead(below: other) {
            filter = .inSet(attributes: attributes, keys: keys)
        } else {
            filter = Self.range(attributes: attributes, keys: keys)
        }
        guard !filter.isConstantTrue else { return }
        run.counters.joinFiltersBuilt += 1
        run.provideFilter(filter, along: otherEdge)
    }

    /// Whether an edge's filter already holds a join's key filter (`join-filter-threshold`
    /// gave one at or below its threshold): an IN-set or `false`, alone or among conjuncts.
    static func hasKeyFilter(_ given: Predicate?) -> Bool {
        switch given {
        case .none: return false
        case .some(.inSet), .some(.constant(false)): return true
        case let .some(.and(parts)): return parts.contains { hasKeyFilter($0) }
        default: return false
        }
    }

    /// For each attribute, `a >= min and a <= max` over the keys' values there. A bound that
    /// excludes nothing (a null minimum) or cannot be bound by SQLite (NaN) is left out,
    /// which only weakens the filter.
    static func range(attributes: [Attribute], keys: Set<Row>) -> Predicate {
        var parts: [Predicate] = []
        for (i, attribute) in attributes.enumerated() {
            let values = keys.compactMap { i < $0.count ? $0.values[i] : nil }
            guard var low = values.first else { continue }
            var high = low
            for value in values.dropFirst() {
                if value < low { low = value }
                if high < value { high = value }
            }
            if !low.isNull, !low.isNaN { parts.append(attribute *>= low) }
            if !high.isNaN { parts.append(attribute *<= high) }
        }
        return .all(parts)
    }
}

extension Value {
    fileprivate var isNaN: Bool {
        if case let .real(d) = self { return d.isNaN }
        return false
    }
}
