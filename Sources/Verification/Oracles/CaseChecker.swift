import QueryEngine
import Relational
import SQLiteStore
import Workloads

/// Checks one case: computes the reference evaluator's and SQLite's answers once, then
/// compares any number of engine runs (flag set × backend) against both, and against the
/// metamorphic partition when the case carries one. Results are compared as lists sorted
/// in the oracle's own total order (`ResultComparison`), and every result, SQLite's
/// included, is checked for a row delivered twice.
public final class CaseChecker {
    public let loaded: LoadedCase
    public let catalog: HeuristicCatalog
    /// Reference evaluator's rows per output (over the case's own rows, not the memory
    /// tables), sorted in `ReferenceOrder`, each once.
    public let reference: [[Row]]
    /// SQLite's rows per output as SQLite returned them, or the error SQLite raised.
    public let sqlite: [Result<[Row], SQLiteOracleError>]
    /// SQLite's rows sorted and de-duplicated (its duplicates are an oracle mismatch of
    /// their own, so an engine run is compared with SQLite's set).
    private let sqliteSorted: [ResultComparison.Sorted?]
    /// Engine-versus-oracle comparisons made so far.
    public private(set) var comparisons = 0

    /// Each baseline engine's outcome for the case (`--engines`), in engine order.
    public let baselines: [(label: String, outcome: BaselineOracles.Outcome)]

    public convenience init(_ graph: CaseGraph, catalog: HeuristicCatalog = .standard, baselines: BaselineOracles? = nil) throws {
        try self.init(graph, catalog: catalog, baselines: baselines, sqlite: { db, relation in try db.evaluate(relation) })
    }

    /// `sqlite` computes SQLite's answer for one output over the case's database (tests
    /// pass a deliberately broken translation to show the oracles catch it).
    init(
        _ graph: CaseGraph, catalog: HeuristicCatalog, baselines oracles: BaselineOracles? = nil,
        sqlite evaluate: (SQLiteDatabase, Relation) throws -> [Row]
    ) throws {
        loaded = try LoadedCase(graph)
        self.catalog = catalog
        let evaluator = ReferenceEvaluator()
        reference = try loaded.referenceOutputs.map { try evaluator.rows(of: $0) }
        let db = loaded.database
        sqlite = loaded.sqliteOutputs.map { relation in
            Result { try evaluate(db, relation) }.mapError { SQLiteOracleError(message: "\($0)") }
        }
        sqliteSorted = sqlite.map { result in
            guard case let .success(rows) = result else { return nil }
            return ResultComparison.Sorted(rows)
        }
        baselines = oracles?.outcomes(for: graph) ?? []
    }

    public var queryText: String { loaded.queryText }

    /// Disagreements between the reference evaluator and SQLite, and SQLite results holding
    /// a row twice (a translation that lost set semantics); blames an oracle.
    public func oracleMismatches() -> [Mismatch] {
        var out: [Mismatch] = []
        for (i, result) in sqlite.enumerated() {
            switch result {
            case let .failure(error):
                out.append(mismatch(.oracles, nil, nil, i, reference[i], [], "SQLite failed: \(error.message)"))
            case let .success(rows):
                guard let sorted = sqliteSorted[i] else { continue }
                if sorted.duplicates > 0 {
                    out.append(mismatch(.oracles, nil, nil, i, reference[i], rows,
                                        "SQLite returned \(sorted.duplicates) row(s) more than once (relations are sets)"))
                }
                if !ResultComparison.same(sorted.distinct, reference[i]) {
                    out.append(mismatch(.oracles, nil, nil, i, reference[i], rows,
                                        "reference evaluator (expected) and SQLite (actual) differ"))
                }
            }
        }
        return out + baselineMismatches()
    }

    /// Disagreements of the baseline engines with the reference evaluator (a refused case
    /// is none: the engine cannot hold it).
    public func baselineMismatches() -> [Mismatch] {
        var out: [Mismatch] = []
        for (label, outcome) in baselines {
            func add(_ i: Int, _ actual: [Row], _ detail: String) {
                var m = mismatch(.baseline, nil, nil, i, reference[safe: i] ?? [], actual, detail)
                m.engine = label
                out.append(m)
            }
            switch outcome {
            case .unsupported:
                continue
            case let .failed(error):
                add(0, [], "\(label) failed: \(error)")
            case let .rows(results):
                if results.count != reference.count {
                    add(0, [], "\(label) delivered \(results.count) outputs, the case has \(reference.count)")
                    continue
                }
                for (i, rows) in results.enumerated() {
                    let sorted = ResultComparison.Sorted(rows)
                    if sorted.duplicates > 0 {
                        add(i, rows, "\(label) returned \(sorted.duplicates) row(s) more than once (relations are sets)")
                    }
                    if !ResultComparison.same(sorted.distinct, reference[i]) {
                        add(i, rows, "reference evaluator (expected) and \(label) (actual) differ")
                    }
                }
            }
        }
        return out
    }

    /// Runs the engine once with `flags` on `backend`, pulling `batchSize` rows from a
    /// source per step (small batches interleave sources), and reports every disagreement.
    public func check(flags: FlagSet, backend: Backend, batchSize: Int = CaseChecker.defaultBatchSize) -> [Mismatch] {
        let run: QueryRun
        do {
            var engine = QueryEngine(flags: flags, catalog: catalog)
            engine.batchSize = batchSize
            engine.checked = true  // a broken engine invariant is an engine error, so a failure
            run = try engine.run(loaded.outputs(backend))
        } catch {
            return [mismatch(.engineError, flags, backend, 0, [], [], "the engine threw: \(error)", batchSize)]
        }
        var out: [Mismatch] = []
        if run.results.count != reference.count {
            out.append(mismatch(.reference, flags, backend, 0, [], [],
                                "the engine delivered \(run.results.count) outputs, the case has \(reference.count)", batchSize))
        }
        for (i, rows) in run.results.enumerated() {
            guard let expected = reference[safe: i] else { break }
            comparisons += 1
            let sorted = ResultComparison.Sorted(rows)
            if sorted.duplicates > 0 {
                out.append(mismatch(.duplicates, flags, backend, i, expected, rows,
                                    "the engine delivered \(sorted.duplicates) row(s) more than once", batchSize))
            }
            if !ResultComparison.same(sorted.distinct, expected) {
                out.append(mismatch(.reference, flags, backend, i, expected, rows, "engine differs from the reference evaluator", batchSize))
            }
            if let sqliteRows = sqliteSorted[safe: i] ?? nil {
                comparisons += 1
                if !ResultComparison.same(sorted.distinct, sqliteRows.distinct) {
                    out.append(mismatch(.sqlite, flags, backend, i, sqliteRows.distinct, rows, "engine differs from SQLite", batchSize))
                }
            }
        }
        if let p = loaded.graph.validPartition, run.results.count == loaded.graph.outputs.count {
            comparisons += 1
            if let problem = ResultComparison.partitionProblem(
                whole: run.results[p.whole], matching: run.results[p.matching], rest: run.results[p.rest])
            {
                out.append(mismatch(.partition, flags, backend, p.whole, run.results[p.whole],
                                    run.results[p.matching] + run.results[p.rest], problem, batchSize))
            }
        }
        return out
    }

    /// `QueryEngine.batchSize`'s default (a test keeps the two equal).
    public static let defaultBatchSize = 1024

    private func mismatch(
        _ kind: Mismatch.Kind, _ flags: FlagSet?, _ backend: Backend?, _ output: Int,
        _ expected: [Row], _ actual: [Row], _ detail: String, _ batchSize: Int? = nil
    ) -> Mismatch {
        Mismatch(kind: kind, flags: flags?.canonical, backend: backend, output: output, queryText: queryText,
                 expected: expected, actual: actual, detail: detail, batchSize: batchSize)
    }
}

public struct SQLiteOracleError: Error, Sendable {
    public let message: String
}
