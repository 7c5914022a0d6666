import QueryEngine
import Relational

/// `testbed hunt --random N --seed X`: N random queries (the fuzzer's generator, with
/// tables of up to `maxRows` rows) measured under a grid of flag sets. Cases where the
/// chosen flag set's regret is at least `minRegret` are reduced, keeping that regret, up to
/// `maxReductions` of them. Case `i` depends only on (seed, i), so a run is deterministic
/// (its times aside).
public struct Hunter {
    public var cases: Int
    public var seed: UInt64
    public var maxRows: Int
    public var minRegret: Double
    public var grid: HuntGrid
    /// The flag set whose regret selects cases to reduce.
    public var chosen: String
    public var reduce = true
    public var maxReductions = 10
    /// Candidate checks per reduction.
    public var reductionBudget = 400
    /// Cases are reduced only when the chosen flag set reads at least this many rows more
    /// than the best, and keep that excess while reduced, so no reduction ends on 2 rows
    /// read against 1.
    public var minExcessRows = 20
    /// Random initiator orders per case for the robustness report (0: none).
    public var robustnessOrders = 3
    public var measurer: RegretMeasurer

    public static let defaultRows = 1000

    public init(cases: Int, seed: UInt64, maxRows: Int = Hunter.defaultRows, minRegret: Double = 2,
                grid: HuntGrid, chosen: String = "all-on") throws {
        guard grid.index(of: chosen) != nil else {
            throw VerificationError.usage("--reduce-flagset: '\(chosen)' is not in the grid ("
                + grid.flagSets.map(\.name).joined(separator: ", ") + ")")
        }
        self.cases = cases
        self.seed = seed
        self.maxRows = maxRows
        self.minRegret = minRegret
        self.grid = grid
        self.chosen = chosen
        measurer = RegretMeasurer(grid: grid)
    }

    /// Random case `index`: the generator's query with the partition oracle's outputs
    /// dropped (they only matter to verification, and an output of the whole reads it all).
    public func makeCase(_ index: Int) -> CaseGraph {
        var random = VerificationRandom(seed: seed, case: index)
        var graph = RandomCaseGenerator(maxRows: maxRows).makeCase(&random)
        if let p = graph.partition {
            graph.outputs = graph.outputs.enumerated().filter { $0.offset != p.matching && $0.offset != p.rest }.map(\.element)
            graph.partition = nil
        }
        return graph.compacted()
    }

    public func run(progress: ((Int, Int) -> Void)? = nil, log: (String) -> Void = { _ in }) throws -> HuntReport {
        var report = HuntReport(flagSets: grid.flagSets.map(\.name), chosen: chosen, minRegret: minRegret, seed: seed)
        let chosenIndex = grid.index(of: chosen) ?? 0
        let step = max(1, min(200, cases / 20))
        var eligible: [(CaseGraph, Int, CaseRegret)] = []
        for index in 0..<cases {
            defer { if let progress, (index + 1) % step == 0 || index + 1 == cases { progress(index + 1, cases) } }
            let graph = makeCase(index)
            let regret: CaseRegret
            do {
                guard !graph.outputs.isEmpty else { throw VerificationError.malformedCase("no outputs") }
                regret = try measurer.measure(graph)
            } catch {
                report.skipped += 1
                log("case \(index): skipped: \(error)")
                continue
            }
            var random = VerificationRandom(seed: seed ^ 0x5EED_0F0D_E125, case: index)
            let ratios = (try? robustness(graph, sources: regret.sources, &random)) ?? []
            report.estimateViolations += ((try? EstimateChecks.check(graph, &random)) ?? []).map { (index, $0) }
            report.cases.append(HuntCase(index: index, nodes: graph.nodeCount, tableRows: graph.rowCount,
                                         regret: regret, orderRatios: ratios))
            let run = regret.runs[chosenIndex]
            if reduce, regret.regret(run) >= minRegret, run.rowsRead - regret.bestRows >= minExcessRows {
                eligible.append((graph, index, regret))
            }
        }
        // The worst cases first, so a capped number of reductions goes to the biggest losses.
        eligible.sort { a, b in
            let ra = a.2.regret(a.2.runs[chosenIndex]), rb = b.2.regret(b.2.runs[chosenIndex])
            return ra != rb ? ra > rb : a.1 < b.1
        }
        for (graph, index, regret) in eligible where report.reduced.count < maxReductions {
            let run = regret.runs[chosenIndex]
            log("case \(index): \(chosen) regret \(format(regret.regret(run))) (\(run.rowsRead) rows, best "
                + "\(regret.bestRows)); reducing \(graph.nodeCount) nodes, \(graph.rowCount) rows")
            let reduced = reduceCase(graph, flags: grid.flagSets[chosenIndex].flags)
            if report.reduced.contains(where: { $0.graph == reduced.graph }) {
                log("  same reduced case as before")
            } else {
                log("  reduced to \(reduced.graph.nodeCount) nodes, \(reduced.graph.rowCount) rows, regret "
                    + "\(format(reduced.regret.regret(reduced.regret.runs[chosenIndex]))) in \(reduced.checks) checks")
                report.reduced.append(reduced)
            }
        }
        return report
    }

    /// Case `index` measured and kept whole (not reduced), to write as a repro and study.
    public func wholeCase(_ index: Int) throws -> ReducedRegret {
        let graph = makeCase(index)
        let chosenIndex = grid.index(of: chosen) ?? 0
        return ReducedRegret(graph: graph, flags: grid.flagSets[chosenIndex].flags, regret: try measurer.measure(graph), checks: 0)
    }

    /// Shrinks `graph` with the delta-debugging reducer while the chosen flag set's regret
    /// stays at least `minRegret` (its flags fixed).
    public func reduceCase(_ graph: CaseGraph, flags: FlagSet) -> ReducedRegret {
        let chosenIndex = grid.index(of: chosen) ?? 0
        let start = ReductionCandidate(graph: graph, flags: flags)
        guard let initial = try? measurer.measure(graph), initial.regret(initial.runs[chosenIndex]) >= minRegret else {
            return ReducedRegret(graph: graph, flags: flags, regret: CaseRegret(runs: [], orderRuns: [], sources: 0, disagreements: 0), checks: 1)
        }
        let excess = minExcessRows
        let keep: (ReductionCandidate) -> CaseRegret? = { c in
            guard let r = try? measurer.measure(c.graph), r.regret(r.runs[chosenIndex]) >= minRegret,
                r.runs[chosenIndex].rowsRead - r.bestRows >= excess
            else { return nil }
            return r
        }
        var reducer = Reducer(catalog: grid.catalog)
        reducer.budget = reductionBudget
        let (reduced, regret, checks) = reducer.reduce(start, evidence: initial, reduceFlags: false, keeping: keep)
        return ReducedRegret(graph: reduced.graph, flags: reduced.flags, regret: regret, checks: checks)
    }

    /// Per flag set: slowest over fastest (rows read, then time) across `robustnessOrders`
    /// random initiator orders of the case; empty for a single source.
    func robustness(_ graph: CaseGraph, sources: Int, _ random: inout VerificationRandom) throws -> [OrderRatio] {
        guard robustnessOrders > 0, sources >= 2 else { return [] }
        let total = Permutations.count(sources)
        var ranks: [Int] = []
        while ranks.count < min(robustnessOrders, total) {
            let r = Int(random.next() % UInt64(total))
            if !ranks.contains(r) { ranks.append(r) }
        }
        return try grid.flagSets.map { set in
            let costs = try measurer.orderCosts(graph, flags: set.flags, ranks: ranks)
            let rows = costs.map(\.rowsRead), times = costs.map(\.microseconds)
            return OrderRatio(rows: CaseRegret.ratio(rows.max() ?? 0, rows.min() ?? 0),
                              time: (times.max() ?? 0) / max(times.min() ?? 1, 1))
        }
    }
}

/// `x` to two decimals, a whole number as `N.0`; beyond 10^15 (a `--min-regret 1e19`) as
/// Swift prints a double, since no `Int` holds it.
func format(_ x: Double) -> String {
    guard x.isFinite, abs(x) < 1e15 else { return String(x) }
    let scaled = (x * 100).rounded() / 100
    return scaled == scaled.rounded() ? String(Int(scaled)) + ".0" : String(scaled)
}

/// Slowest over fastest across initiator orders, for one flag set on one case.
public struct OrderRatio: Sendable {
    public let rows: Double
    public let time: Double
}

public struct HuntCase: Sendable {
    public let index: Int
    public let nodes: Int
    public let tableRows: Int
    public let regret: CaseRegret
    /// Per flag set, in grid order (empty: single-source case or none drawn).
    public let orderRatios: [OrderRatio]
}

/// A case reduced with its regret kept.
public struct ReducedRegret: Sendable {
    public let graph: CaseGraph
    public let flags: FlagSet
    public let regret: CaseRegret
    public let checks: Int
}

public struct HuntReport: Sendable {
    public let flagSets: [String]
    public let chosen: String
    public let minRegret: Double
    public let seed: UInt64
    public var cases: [HuntCase] = []
    public var skipped = 0
    public var reduced: [ReducedRegret] = []
    /// (case index, violation).
    public var estimateViolations: [(Int, EstimateViolation)] = []

    public var disagreements: Int { cases.reduce(0) { $0 + $1.regret.disagreements } }

    /// Regrets of one flag set over every measured case.
    public func regrets(_ flagSet: Int) -> [Double] { cases.map { $0.regret.regret($0.regret.runs[flagSet]) } }
}
