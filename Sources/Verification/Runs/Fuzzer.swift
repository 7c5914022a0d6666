import QueryEngine
import Workloads

/// `testbed verify --random N --seed S`: N random cases, each checked against the
/// reference evaluator, SQLite and the partition oracle under a few random flag sets on
/// random backends with random batch sizes. Case `i` depends only on (seed, i), so runs are deterministic.
public struct Fuzzer {
    public var cases: Int
    public var seed: UInt64
    /// Engine runs per case (each a random flag set on a random backend).
    public var runsPerCase = 3
    public var grid: FlagGrid
    public var reduce = true
    public var maxReductions = 10
    /// Where reduced cases go (`<dir>/random-s<seed>-<n>/`); nil writes nothing.
    public var reproParent: String? = ReproDirectory.defaultParent
    /// Rows per table at most (`--rows`); nil for the classic small tables of 0–6 rows.
    public var maxRows: Int?
    /// The backends engine runs are drawn from (`--backend`).
    public var backends: [Backend] = Fuzzer.defaultBackends
    public static let defaultBackends: [Backend] = [.memory, .sqlite]
    /// Baseline engines checked as further oracles (`--engines`); nil for none.
    public var baselines: BaselineOracles?
    /// Columns of one storage class each (numbers may mix integers and reals), as engines
    /// with typed columns can hold; on whenever `baselines` holds such an engine.
    public var typedColumns = false
    /// With `maxRows`, a case whose all-off run moves more rows than this through its nodes
    /// is counted as too large and not checked (`RegretMeasurer.checkWork`, the hunt's
    /// bound): seed 889011 case 97 at `--rows 1000` took 24 GB before the kernel killed the
    /// run, the reference evaluator and SQLite materialising what the engine would stream.
    public var maxWork = RegretMeasurer.defaultMaxWork

    /// Batch sizes drawn per engine run: single rows and pairs interleave sources and
    /// operands; the default delivers each small table at once.
    public static let batchSizes = [1, 2, 3, CaseChecker.defaultBatchSize]
    /// With `maxRows`, also batches that split a large table into a few pieces.
    public static let largeBatchSizes = [1, 2, 3, 64, CaseChecker.defaultBatchSize]

    public init(cases: Int, seed: UInt64, grid: FlagGrid = .verify()) {
        self.cases = cases
        self.seed = seed
        self.grid = grid
    }

    /// The random case number `index` of this run.
    public func makeCase(_ index: Int) -> CaseGraph {
        var random = VerificationRandom(seed: seed, case: index)
        return RandomCaseGenerator(maxRows: maxRows, typedColumns: typedColumns).makeCase(&random)
    }

    public func run(
        progress: ((VerificationProgress) -> Void)? = nil, log: @escaping (String) -> Void = { _ in }
    ) throws -> VerificationReport {
        var report = VerificationReport()
        var collector = MismatchCollector(
            catalog: grid.catalog, reduce: reduce, maxReductions: maxReductions, reproParent: reproParent,
            idPrefix: "random-s\(seed)", log: log)
        collector.baselines = baselines
        let step = max(1, min(1000, cases / 20))
        for index in 0..<cases {
            var random = VerificationRandom(seed: seed, case: index)
            let graph = RandomCaseGenerator(maxRows: maxRows, typedColumns: typedColumns).makeCase(&random)
            report.cases += 1
            if maxRows != nil {
                do {
                    try RegretMeasurer.checkWork(try RegretMeasurer.memoryOutputs(graph), limit: maxWork,
                                                 catalog: grid.catalog, batchSize: CaseChecker.defaultBatchSize)
                } catch let tooMuch as RegretMeasurer.TooMuchWork {
                    report.tooLarge += 1
                    log("case \(index): \(tooMuch) (more than \(maxWork)); not checked")
                    continue
                } catch {
                    // Left to the checker below, which counts a case it cannot build as skipped.
                }
            }
            guard let checker = try? CaseChecker(graph, catalog: grid.catalog, baselines: baselines) else {
                report.skipped += 1
                log("case \(index): could not be built or evaluated by the reference evaluator; skipped")
                continue
            }
            let oracle = checker.oracleMismatches()
            report.comparisons += checker.reference.count
            report.countBaselines(checker)
            collector.record(oracle, graph: graph, flags: nil, backend: nil, caseLabel: "random case \(index)", into: &report)
            for _ in 0..<runsPerCase {
                let flags = try grid.randomFlagSet(&random)
                // The default pair keeps its coin (and so every earlier run's cases and draws).
                let backend: Backend = backends == Fuzzer.defaultBackends
                    ? (random.chance(0.5) ? .memory : .sqlite)
                    : random.element(of: backends) ?? .memory
                let batchSize = maxRows == nil
                    ? Fuzzer.batchSizes[random.weighted([2, 1, 1, 2])]
                    : Fuzzer.largeBatchSizes[random.weighted([1, 1, 1, 2, 2])]
                report.engineRuns += 1
                let found = checker.check(flags: flags, backend: backend, batchSize: batchSize)
                collector.record(found, graph: graph, flags: flags, backend: backend, batchSize: batchSize,
                                 caseLabel: "random case \(index)", into: &report)
                if !found.isEmpty { break }
            }
            report.comparisons += checker.comparisons
            if let progress, (index + 1) % step == 0 || index + 1 == cases {
                progress(VerificationProgress(done: index + 1, total: cases, mismatches: report.mismatches))
            }
        }
        return report
    }
}
