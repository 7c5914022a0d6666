import QueryEngine
import Relational
import Workloads

/// `testbed verify`: every catalog query on datasets of its shape at each size and seed,
/// under every flag combination of the grid on each backend, compared with the reference
/// evaluator and SQLite (and the two oracles with each other).
public struct CatalogVerification {
    public var queries: [CatalogQuery]
    public var sizes: [Int]
    public var seeds: [UInt64]
    public var backends: [Backend] = Backend.allCases
    public var grid: FlagGrid
    public var reduce = true
    public var maxReductions = 5
    public var reproParent: String? = ReproDirectory.defaultParent

    public init(queries: [CatalogQuery], sizes: [Int], seeds: [UInt64], grid: FlagGrid = .verify()) {
        self.queries = queries
        self.sizes = sizes
        self.seeds = seeds
        self.grid = grid
    }

    /// Runs the verification after `check()`, so bad input stops it before anything runs.
    public func run(
        progress: ((VerificationProgress) -> Void)? = nil, log: @escaping (String) -> Void = { _ in }
    ) throws -> VerificationReport {
        try check()
        let flagSets = try grid.flagSets()
        var report = VerificationReport()
        var collector = MismatchCollector(
            catalog: grid.catalog, reduce: reduce, maxReductions: maxReductions, reproParent: reproParent,
            idPrefix: "catalog", log: log)
        let total = queries.count * sizes.count * seeds.count
        var datasets: [String: Dataset] = [:]
        for query in queries {
            guard let shape = query.shape else { continue }
            for size in sizes {
                for seed in seeds {
                    let key = "\(shape) \(size) \(seed)"
                    let dataset = try datasets[key] ?? shape.generate(rows: size, seed: seed)
                    datasets[key] = dataset
                    let label = "\(query.name) on \(shape) rows=\(size) seed=\(seed)"
                    let parsed = try query.parse(catalog: try dataset.memoryRelations())
                    let graph = try CaseGraph(outputs: parsed.relations)
                    report.cases += 1
                    let checker = try CaseChecker(graph, catalog: grid.catalog)
                    collector.record(checker.oracleMismatches(), graph: graph, flags: nil, backend: nil,
                                     caseLabel: label, into: &report)
                    report.comparisons += checker.reference.count
                    var failed = false
                    for backend in backends {
                        for flags in flagSets {
                            report.engineRuns += 1
                            let found = checker.check(flags: flags, backend: backend)
                            if failed {
                                report.count(found)
                            } else {
                                collector.record(found, graph: graph, flags: flags, backend: backend,
                                                 caseLabel: label, into: &report)
                                failed = !found.isEmpty
                            }
                        }
                    }
                    report.comparisons += checker.comparisons
                    progress?(VerificationProgress(done: report.cases, total: total, mismatches: report.mismatches))
                }
            }
        }
        return report
    }
}
