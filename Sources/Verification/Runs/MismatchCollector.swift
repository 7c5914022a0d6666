import QueryEngine
import Workloads

/// Collects disagreements during a run: counts every one, keeps the first of each failing
/// case, and reduces (and writes) up to `maxReductions` of them, skipping cases whose
/// reduced form is one already seen.
struct MismatchCollector {
    let catalog: HeuristicCatalog
    let reduce: Bool
    let maxReductions: Int
    let reproParent: String?
    let idPrefix: String
    let log: (String) -> Void
    /// The baseline engines of the run (`--engines`), to reduce their disagreements.
    var baselines: BaselineOracles?
    private var seenReduced = Set<String>()
    private var reductions = 0

    init(catalog: HeuristicCatalog, reduce: Bool, maxReductions: Int, reproParent: String?, idPrefix: String,
         log: @escaping (String) -> Void) {
        self.catalog = catalog
        self.reduce = reduce
        self.maxReductions = maxReductions
        self.reproParent = reproParent
        self.idPrefix = idPrefix
        self.log = log
    }

    mutating func record(
        _ found: [Mismatch], graph: CaseGraph, flags: FlagSet?, backend: Backend?, batchSize: Int = CaseChecker.defaultBatchSize,
        caseLabel: String,
        into report: inout VerificationReport
    ) {
        guard let first = found.first else { return }
        report.count(found)
        if report.firstMismatches.count < 20 { report.firstMismatches.append(first) }
        guard reduce, reductions < maxReductions, let flags = flags ?? (try? catalog.preset("all-on")) else { return }
        reductions += 1
        let failing = FailingCase(graph: graph, flags: flags, backend: backend ?? .memory, batchSize: batchSize, mismatch: first)
        log("reducing \(caseLabel): \(first.kind.rawValue) mismatch, \(graph.nodeCount) nodes, \(graph.rowCount) rows")
        var reducer = Reducer(catalog: catalog)
        reducer.baselines = baselines
        let (reduced, checks) = reducer.reduce(failing)
        let key = reduced.mismatch.kind.rawValue + "|" + reduced.flags.canonical + "|" + reduced.mismatch.queryText
        guard seenReduced.insert(key).inserted else {
            log("  same reduced case as before (\(checks) checks)")
            return
        }
        var path: String?
        if let parent = reproParent {
            let id = "\(idPrefix)-\(report.reduced.count + 1)"
            do {
                path = try ReproDirectory.write(reduced, id: id, under: parent)
            } catch {
                log("  could not write the repro: \(error)")
            }
        }
        log("  reduced to \(reduced.graph.nodeCount) nodes, \(reduced.graph.rowCount) rows in \(checks) checks"
            + (path.map { "; wrote \($0)" } ?? ""))
        report.reduced.append((reduced, path))
    }
}
