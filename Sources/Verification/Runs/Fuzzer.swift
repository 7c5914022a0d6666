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
    /// Baseline engines checked as further oracles (`--engines`); nil for none.
    public var baselines: BaselineOracles?
    /// Columns of one storage class each (numbers may mix integers and reals), as engines
    /// with typed columns can hold; on whenever `baselines` holds such an engine.
    public var typedColumns = false

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
                let backend: Backend = random.chance(0.5) ? .memory : .sqlite
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
