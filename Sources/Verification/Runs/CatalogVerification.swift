import QueryEngine
import Relational
import Workloads

/// `testbed verify`: every catalog query on datasets of its shape at each size and seed
/// (the default parameters, then each of the shape's `variants`), under every flag
/// combination of the grid on each backend, compared with the reference evaluator and
/// SQLite (and the two oracles with each other).
public struct CatalogVerification {
    public var queries: [CatalogQuery]
    public var sizes: [Int]
    public var seeds: [UInt64]
    /// Extra parameter sets per shape, each verified beside the default dataset.
    public var variants: [Shape: [ShapeParameters]] = CatalogVerification.triggerVariants
    public var backends: [Backend] = Backend.allCases
    public var grid: FlagGrid
    public var reduce = true
    public var maxReductions = 5
    public var reproParent: String? = ReproDirectory.defaultParent
    /// Baseline engines checked as further oracles (`--engines`); nil for none.
    public var baselines: BaselineOracles?

    /// Datasets that hold what the default ones never do (issue 10's "triggers"): reals
    /// equal to integers (`3.0` beside `3`) in keys, null names, and for documents a root as
    /// the selection, whose null `parent_id` becomes a join filter `parent_id == null` on the
    /// indexed column and lands on the right side of the siblings difference (with a tenth
    /// of the documents roots, so a root has siblings). Selections of several rows (a
    /// subtree of documents, three to-do items) make the catalog's projects meet equal rows,
    /// which they must coalesce.
    public static let triggerVariants: [Shape: [ShapeParameters]] = [
        .documents: [
            ShapeParameters(["reals": "0.5", "null-names": "0.2", "selected": "root", "roots": "0.1"]),
            ShapeParameters(["reals": "0.5", "selected": "subtree"]),
        ],
        .pets: [ShapeParameters(["reals": "0.5", "null-names": "0.5"])],
        .todo: [ShapeParameters(["reals": "0.5", "null-names": "0.5", "selected": "3"])],
    ]

    /// The parameter sets `shape` is verified with: the defaults first, then its variants.
    public func parameterSets(_ shape: Shape) -> [ShapeParameters] {
        [ShapeParameters()] + (variants[shape] ?? [])
    }

    /// Every dataset a query of `shape` is verified on: parameter set × size × seed.
    func datasetRequests(_ shape: Shape) -> [(ShapeParameters, Int, UInt64)] {
        parameterSets(shape).flatMap { p in
            sizes.flatMap { size in seeds.map { (Self.fitted(p, rows: size), size, $0) } }
        }
    }

    /// A variant's counted selection (`selected=3`) is capped at the row count, so the
    /// variants fit every size the shape accepts.
    static func fitted(_ parameters: ShapeParameters, rows: Int) -> ShapeParameters {
        guard let text = parameters["selected"], let k = Int(text), k > rows else { return parameters }
        var values = parameters.values
        values["selected"] = String(rows)
        return ShapeParameters(values)
    }

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
        collector.baselines = baselines
        let total = queries.reduce(0) { $0 + ($1.shape.map { datasetRequests($0).count } ?? 0) }
        var datasets: [String: Dataset] = [:]
        for query in queries {
            guard let shape = query.shape else { continue }
            for (parameters, size, seed) in datasetRequests(shape) {
                let key = "\(shape) \(size) \(seed) \(parameters)"
                let dataset = try datasets[key] ?? shape.generate(rows: size, seed: seed, parameters: parameters)
                datasets[key] = dataset
                let label = "\(query.name) on \(shape) rows=\(size) seed=\(seed)"
                    + (parameters.values.isEmpty ? "" : " params \(parameters)")
                let parsed = try query.parse(catalog: try dataset.memoryRelations())
                let graph = try CaseGraph(outputs: parsed.relations)
                report.cases += 1
                let checker = try CaseChecker(graph, catalog: grid.catalog, baselines: baselines)
                collector.record(checker.oracleMismatches(), graph: graph, flags: nil, backend: nil,
                                 caseLabel: label, into: &report)
                report.comparisons += checker.reference.count
                report.countBaselines(checker)
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
        return report
    }
}
