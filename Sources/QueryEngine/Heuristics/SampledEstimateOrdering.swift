import Relational

/// `sampled-estimate-ordering`: when a candidate's active filter is one no index answers
/// (its estimate is its whole table), or one an index answers only in part (its index count
/// scaled by the sampled selectivity of the rest), pick the next initiator by sampled
/// estimates (`SampledEstimates`): such a source counts its sampled size, every other its own
/// estimate; the smallest goes first, ties in declaration order. With no such candidate it
/// leaves the pick to the initiator ordering. (`filter-aware-ordering` sizes such sources
/// by the same samples, whatever this flag says: a heuristic reads only its own flags.)
///
/// The hunt's class (issue 15, thirteenth round): an unindexed equality (or a NOT no index
/// reads) that matches nothing or little, estimated at its whole table, so a smaller table
/// is drained first and read whole, while draining the filtered one first reads nothing and
/// empties the join or difference above it. Seed 34 case 1791: `(t0 join t1) select (26 >
/// b) project [a, c, d] select (c == 72)`, `t0` 150 rows unindexed on `c` (no row has 72)
/// against `t1`'s 5 (5 rows against 0); seed 34 case 266: `c == "b"` on a 57-row table
/// (5 against 1); seed 34 case 1794: `not (b > 50)` on an 81-row table indexed on `b`,
/// one row, drained after a 62-row table whose 45 matching rows were read (46 against 2);
/// seed 32 case 573: `e == null` on an 88-row table, deferred by `filter-aware-ordering`
/// (guessed at a tenth) behind a 5-row table (5 against 1).
public final class SampledEstimateOrdering: Heuristic {
    public static let sampling = FlagKey<Bool>("sampled-estimate-ordering")

    public static let flags = [
        FlagSpec(
            name: sampling.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "pick the next source by a sampled estimate when a source's filter is one no index answers, or answers only in part (and the pick is at most half the smallest-estimate one)",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> SampledEstimateOrdering? {
        flags.isOn(sampling) ? SampledEstimateOrdering() : nil
    }

    private let samples = SampledEstimates()

    /// Samples for one run: the instance later runs of a prepared query use, made once and
    /// handed out again emptied of the last run's samples (a table may change between runs),
    /// as a fresh one would be (README "Per-run fixed cost, step 11"). Runs of a prepared
    /// query come one after another (a run inside another gets instances made anew).
    public func instanceForRun() -> (any Heuristic)? {
        if let next = runInstance {
            next.samples.removeAll()
            return next
        }
        let next = SampledEstimateOrdering()
        runInstance = next
        return next
    }

    /// The instance later runs use (see `instanceForRun`); kept by the prepared instance only.
    private var runInstance: SampledEstimateOrdering?

    /// Only a choice between two or more sources.
    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.mayHaveTwoSources ? [.chooseInitiator] : .none
    }

    /// Cheapest refusals first: with no candidate to sample (the usual case when indexes
    /// answer the filters), it asks no estimate of the others and leaves the pick.
    ///
    /// It overrides the smallest-estimate pick only when its own is at most half that pick's
    /// size (sampled if it has one): a sample of 128 rows is rough, and a near tie decided by
    /// it gained nothing on the seeds it was tried on. A source whose rows reach only a
    /// difference's right operand is not picked: they filter nothing, while the left
    /// operand's rows filter them (seed 31 case 1918, `(t1 rename […] minus t2 select (e ==
    /// 2 or e > 0)) project [a]`, both 277 rows and sampled at 277 and 245: `t2` was drained
    /// first, 522 rows against 287; 32/1994 and 31/1728 the same, with a half rule alone
    /// 1994's pair was sampled far apart).
    public func chooseInitiator(from candidates: [NodeID], run: any RunnerContext) -> NodeID? {
        guard candidates.count > 1 else { return nil }
        // Each candidate sampled once: the check below and the pick read the same answers.
        sampled.removeAll(keepingCapacity: true)
        var any = false
        for id in candidates {
            let size = samples.hundredths(id, run)
            any = any || size != nil
            sampled.append(size)
        }
        guard any else { return nil }
        var best: (id: NodeID, size: Int)?
        var usual: (id: NodeID, estimate: Int, size: Int)?
        for (id, sampledSize) in zip(candidates, sampled) {
            let estimate = run.estimate(id) ?? Int.max
            let size: Int
            if let sampledSize {
                size = sampledSize
            } else {
                let (scaled, overflow) = estimate.multipliedReportingOverflow(by: 100)
                size = overflow ? Int.max : scaled
            }
            if usual.map({ estimate < $0.estimate }) ?? true { usual = (id, estimate, size) }
            if let known = best, known.size <= size { continue }
            if Self.feedsOnlyADifferencesRight(id, run.graph) { continue }
            best = (id, size)
        }
        guard let best, let usual, best.id != usual.id, best.size <= usual.size / 2 else { return nil }
        return best.id
    }

    /// This pick's candidates' sampled sizes in hundredths of a row (`SampledEstimates.hundredths`:
    /// under a filter no index answers, or, when an index answers part of it, the index's count
    /// scaled by the rest's sampled selectivity; nil: nothing to sample), in candidate
    /// order; scratch kept so a pick allocates nothing.
    private var sampled: [Int?] = []

    /// Whether `source`, up through selects, projects and renames each its only parent, is
    /// a difference's right operand.
    static func feedsOnlyADifferencesRight(_ source: NodeID, _ graph: PlanGraph) -> Bool {
        var node = source
        while true {
            let parents = graph[node].parents
            guard parents.count == 1, graph[node].outputs.isEmpty, let edge = parents.first else { return false }
            switch graph[edge.parent].operation {
            case .apply(.select), .apply(.project), .apply(.rename):
                node = edge.parent
            case .apply(.difference):
                return edge.operand == 1
            default:
                return false
            }
        }
    }
}
