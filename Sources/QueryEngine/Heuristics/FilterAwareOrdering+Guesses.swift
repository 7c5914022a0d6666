import Relational

/// `filter-aware-ordering`'s guesses for a source whose active filter its estimate cannot
/// see (System R's default selectivities), split from `FilterAwareOrdering.swift`: that
/// file decides what to defer, this one how large a filtered source is guessed to be.
extension FilterAwareOrdering {
    /// A source's estimate in hundredths of a row. One whose active filter its estimate
    /// cannot see (no index answers it, so the estimate is the whole table) is guessed with
    /// System R's selectivities for predicates it cannot estimate (`guessedSelectivity`).
    /// The hunt (issue 15): `t1 select (e >= "x,y") join t0` over unindexed tables of 10 and
    /// 4 rows; taken at 10 rows the select's side looked larger, `t0` was drained first and
    /// the empty select's filter came too late (4 rows against 0). The third round guessed
    /// a third, rounded up to whole rows: 4 against 4, a tie, and still `t0` first.
    static func guessed(_ estimate: Int, source node: NodeID, nodes: [PlanNode], run: any RunnerContext) -> Int {
        let (scaled, overflow) = estimate.multipliedReportingOverflow(by: 100)
        if overflow { return Int.max }
        guard estimate > 0, let whole = nodes[node].approximateCount, estimate >= whole else { return scaled }
        let state = run.filterState(of: node)
        guard state.isActive, let filter = state.filter, !filter.isConstantTrue else { return scaled }
        return Int((Double(scaled) * guessedSelectivity(filter)).rounded(.up))
    }

    /// System R's default selectivities: an equality 1/10, any other comparison 1/3; an AND
    /// multiplies its parts', an OR adds them (at most 1), a NOT takes the rest, an IN-set
    /// counts an equality per key. The hunt's `(t3 join t0) select (c <= d and c < 0)` needs
    /// the AND: at a third the 10-row `t3` tied with the 4-row `t0`. An AND counts one upper
    /// and one lower bound per attribute (a range, 1/9 at most): issue 15, eighth round, seed
    /// 18 case 74, `… select (e > null and e <= 42 and e < 73 and e <= 61 and e > 33) join
    /// t3` over a 300-row table unindexed on `e`; multiplied, five bounds made it 1.2 rows,
    /// below the 2-row `t3`, which was deferred, and the table was read (36 rows against 2).
    static func guessedSelectivity(_ filter: Predicate) -> Double {
        if case let .and(parts) = filter { return andSelectivity(parts) }
        return partSelectivity(filter)
    }

    private static func andSelectivity(_ parts: [Predicate]) -> Double {
        var bounds: [(Attribute, Bool)] = []
        var product = 1.0
        for part in parts.flatMap(\.conjuncts) {
            if let bound = rangeBound(part) {
                if bounds.contains(where: { $0.0 == bound.0 && $0.1 == bound.1 }) { continue }
                bounds.append(bound)
            }
            product *= guessedSelectivity(part)
        }
        return product
    }

    /// The attribute a comparison with a value bounds, and whether from above.
    private static func rangeBound(_ filter: Predicate) -> (Attribute, Bool)? {
        guard case let .comparison(lhs, op, rhs) = filter else { return nil }
        let upper: Bool
        switch op {
        case .less, .lessOrEqual: upper = true
        case .greater, .greaterOrEqual: upper = false
        case .equal, .notEqual: return nil
        }
        switch (lhs, rhs) {
        case let (.attribute(a), .value): return (a, upper)
        case let (.value, .attribute(a)): return (a, !upper)
        default: return nil
        }
    }

    private static func partSelectivity(_ filter: Predicate) -> Double {
        switch filter {
        case let .constant(holds): return holds ? 1 : 0
        case let .comparison(lhs, op, rhs):
            if let bounded = nullBoundSelectivity(lhs, op, rhs) { return bounded }
            switch op {
            case .equal: return 0.1
            case .notEqual: return 0.9
            case .less, .lessOrEqual, .greater, .greaterOrEqual: return 1.0 / 3
            }
        case let .and(parts): return andSelectivity(parts)
        case let .or(parts): return min(1, parts.reduce(0) { $0 + guessedSelectivity($1) })
        case let .not(inner): return 1 - guessedSelectivity(inner)
        case let .inSet(_, keys): return min(1, Double(keys.count) * 0.1)
        }
    }

    /// A comparison of an attribute with null, the lowest value: `a < null` holds for no
    /// row, `a >= null` for every row (no three-valued logic). Issue 15, eleventh round,
    /// seed 25 case 1883: `t0 select (a == 40 or (a < null and true)) join t1`, 22 rows
    /// unindexed against 5; guessed at 1/10 + 1/3 of 22, the select's side looked larger,
    /// `t1` was drained first and read (5 rows against 0, `a == 40` matching nothing).
    private static func nullBoundSelectivity(_ lhs: Term, _ op: ComparisonOperator, _ rhs: Term) -> Double? {
        let normalized: ComparisonOperator
        switch (lhs, rhs) {
        case (.attribute, .value(let v)) where v.isNull: normalized = op
        case (.value(let v), .attribute) where v.isNull: normalized = op.swapped
        default: return nil
        }
        switch normalized {
        case .less: return 0
        case .greaterOrEqual: return 1
        default: return nil
        }
    }
}
