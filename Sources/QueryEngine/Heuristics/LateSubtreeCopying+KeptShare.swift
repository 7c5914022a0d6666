import Relational

/// Case 8's measure of a copy whose root is not a source: how much of what the subtree reads
/// anyway a filter keeps.
extension LateSubtreeCopying {
    /// Rows in hundredths: `floor`, what the subtree reads whatever the filter (its own
    /// selects' predicates brought down to its sources), and `kept`, what it reads under the
    /// filter too; `sources`, how many sources the filter reached.
    struct KeptShare {
        var kept: Int
        var floor: Int
        var sources = 1
    }

    /// The share of `node`'s floor that `filter` keeps, from its sources': a union (and the
    /// other operators) reads all its operands, so theirs are added; a join or an
    /// intersection reads its others keyed by its narrowest operand, so it keeps that
    /// operand's share of the whole. Nil (counted as narrowed) for a source other than a
    /// memory table, or past `budget` nodes. Operands the filter does not reach are left
    /// out, as `reachesSource` leaves them; a filter that reaches no source narrows nothing.
    ///
    /// Issue 15, held-out seed 686 case 1986 at `--rows 300`: `shared = (t1 intersect t1
    /// select (d > null) intersect t1) select (c < 2)` under `shared join (t0 join shared)`,
    /// `t1` 299 rows indexed on `c`. `t0`'s 25 keys keep 48 of `t1`'s rows, under half the
    /// table, so `shared` was copied for the outer join, and `t1` was read four times (48 +
    /// 44 + 44 + 44 rows against 54 once): `c < 2` alone keeps 54. Measured against the
    /// floor source by source, a union of `t2` with `t2 select (c == 22)` counted as
    /// narrowed when the keys missed `c == 22`'s two rows while keeping most of `t2` (seed
    /// 390 case 1027 at `--rows 300`, 228 rows read → 330); added over the whole subtree, a
    /// join whose one-row side the filter empties (seed 361 case 1449) counted as kept.
    static func keptShare(of node: NodeID, under filter: Predicate, floor: Predicate, _ run: any RunnerContext,
                          _ budget: inout Int) -> KeptShare? {
        budget -= 1
        guard budget >= 0 else { return nil }
        let graph = run.graph
        switch graph[node].operation {
        case let .source(source):
            guard let table = source as? MemoryTable else { return nil }
            return sourceShare(table, filter, floor)
        case .dead:
            return KeptShare(kept: 0, floor: 0, sources: 0)
        case let .apply(op):
            var below = floor
            if case let .select(predicate) = op { below = floor.isConstantTrue ? predicate : .all([floor, predicate]) }
            var operands: [KeptShare] = []
            for operand in graph[node].children.indices {
                let edge = Edge(parent: node, operand: operand)
                guard let derived = passedDown(filter, along: edge, run) else { continue }
                let childFloor = passedDown(below, along: edge, run) ?? .constant(true)
                guard let share = keptShare(of: graph.child(at: edge), under: derived, floor: childFloor, run, &budget)
                else { return nil }
                operands.append(share)
            }
            let total = operands.reduce(KeptShare(kept: 0, floor: 0, sources: 0)) {
                KeptShare(kept: $0.kept.addingClamped($1.kept), floor: $0.floor.addingClamped($1.floor),
                          sources: $0.sources + $1.sources)
            }
            switch op {
            case .join, .intersection:
                // The narrowest operand's share, compared as kept₁ × floor₂ < kept₂ × floor₁;
                // an operand that reads nothing anyway empties the node.
                guard let narrowest = operands.min(by: { a, b in
                    Double(a.kept) * Double(b.floor) < Double(b.kept) * Double(a.floor)
                }) else { return total }
                guard narrowest.floor > 0 else { return KeptShare(kept: 0, floor: total.floor, sources: total.sources) }
                let kept = Double(total.floor) * Double(narrowest.kept) / Double(narrowest.floor)
                return KeptShare(kept: Int(min(kept, Double(total.floor))), floor: total.floor, sources: total.sources)
            default:
                return total
            }
        }
    }

    /// A source's share: against the whole table when no select narrows it (an index that
    /// finds at most half the rows answers, else a sample); else against the floor, as its
    /// index finds it or, for a floor no index answers (a hash index's estimate of a range
    /// is the whole table), as sampled. A sampled floor the statistics sample holds fewer
    /// than `floorMatches` rows of is a guess at a few rows, which a copy re-reads at little
    /// cost: it counts as kept by nothing. Held-out seed 359 case 67 at the default rows:
    /// `shared = t0 select (c == d)`, 4 of `t0`'s 945 rows, none in the sample; measured
    /// against that guess, `t1`'s five keys looked as if they kept most of it, the copies
    /// that let `t1`'s keys empty the joins were vetoed, and `t0` was read whole (950 rows
    /// against 5). Counted at the whole table instead, such a floor outweighed a union's
    /// other operand (seed 390 case 1027: 228 rows → 330).
    private static func sourceShare(_ table: MemoryTable, _ filter: Predicate, _ floor: Predicate) -> KeptShare {
        let whole = table.count * 100
        guard floor.isConstantTrue else {
            let floorKept: Int
            if let estimate = table.estimatedCount(filter: floor), estimate < table.count {
                floorKept = estimate * 100
            } else {
                floorKept = min(SampledEstimates.sample(table, floor) ?? whole, whole)
                if floorKept * min(table.count, MemoryTable.statisticsSampleLimit) < floorMatches * whole {
                    return KeptShare(kept: 0, floor: floorKept)
                }
            }
            let both = Predicate.all([filter, floor])
            let kept = both.isUnsatisfiable ? 0 : SampledEstimates.sample(table, both) ?? floorKept
            return KeptShare(kept: min(kept, floorKept), floor: floorKept)
        }
        if let estimate = table.estimatedCount(filter: filter), estimate * 2 <= table.count {
            return KeptShare(kept: estimate * 100, floor: whole)
        }
        return KeptShare(kept: min(SampledEstimates.sample(table, filter) ?? whole, whole), floor: whole)
    }

    /// How many of the statistics sample's rows a floor must hold to be measured against.
    static let floorMatches = 8
}

private extension Int {
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
