import QueryEngine
import Relational
import SQLiteStore
import Workloads

/// Checks one case: computes the reference evaluator's and SQLite's answers once, then
/// compares any number of engine runs (flag set × backend) against both, and against the
/// metamorphic partition when the case carries one. Results are compared as sets.
public final class CaseChecker {
    public let loaded: LoadedCase
    public let catalog: HeuristicCatalog
    /// Reference evaluator's rows per output (over the memory tables).
    public let reference: [[Row]]
    /// SQLite's rows per output, or the error SQLite raised.
    public let sqlite: [Result<[Row], SQLiteOracleError>]
    /// Engine-versus-oracle comparisons made so far.
    public private(set) var comparisons = 0

    public init(_ graph: CaseGraph, catalog: HeuristicCatalog = .standard) throws {
        loaded = try LoadedCase(graph)
        self.catalog = catalog
        let evaluator = ReferenceEvaluator()
        reference = try loaded.memoryOutputs.map { try evaluator.rows(of: $0) }
        let db = loaded.database
        sqlite = loaded.sqliteOutputs.map { relation in
            Result { try db.evaluate(relation) }.mapError { SQLiteOracleError(message: "\($0)") }
        }
    }

    public var queryText: String { loaded.queryText }

    /// Disagreements between the reference evaluator and SQLite (blames an oracle).
    public func oracleMismatches() -> [Mismatch] {
        var out: [Mismatch] = []
        for (i, result) in sqlite.enumerated() {
            switch result {
            case let .failure(error):
                out.append(mismatch(.oracles, nil, nil, i, reference[i], [], "SQLite failed: \(error.message)"))
            case let .success(rows) where !CaseChecker.sameSet(rows, reference[i]):
                out.append(mismatch(.oracles, nil, nil, i, reference[i], rows, "reference evaluator (expected) and SQLite (actual) differ"))
            default: break
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
        for (i, rows) in run.results.enumerated() {
            comparisons += 1
            if Set(rows).count != rows.count {
                out.append(mismatch(.duplicates, flags, backend, i, reference[i], rows, "the engine delivered a row more than once", batchSize))
            }
            if !CaseChecker.sameSet(rows, reference[i]) {
                out.append(mismatch(.reference, flags, backend, i, reference[i], rows, "engine differs from the reference evaluator", batchSize))
            }
            if case let .success(expected)? = sqlite[safe: i] {
                comparisons += 1
                if !CaseChecker.sameSet(rows, expected) {
                    out.append(mismatch(.sqlite, flags, backend, i, expected, rows, "engine differs from SQLite", batchSize))
                }
            }
        }
        if let p = loaded.graph.validPartition, run.results.count == loaded.graph.outputs.count {
            comparisons += 1
            if let problem = CaseChecker.partitionProblem(
                whole: run.results[p.whole], matching: run.results[p.matching], rest: run.results[p.rest])
            {
                out.append(mismatch(.partition, flags, backend, p.whole, run.results[p.whole],
                                    run.results[p.matching] + run.results[p.rest], problem, batchSize))
            }
        }
        return out
    }

    /// Why `matching` and `rest` do not partition `whole`, or nil when they do.
    static func partitionProblem(whole: [Row], matching: [Row], rest: [Row]) -> String? {
        let w = Set(whole), m = Set(matching), r = Set(rest)
        if !m.isDisjoint(with: r) {
            return "Q select p and Q select not p share \(m.intersection(r).count) rows"
        }
        if m.union(r) != w {
            return "(Q select p) union (Q select not p) has \(m.union(r).count) rows, Q has \(w.count)"
        }
        return nil
    }

    /// `QueryEngine.batchSize`'s default (a test keeps the two equal).
    public static let defaultBatchSize = 1024

    static func sameSet(_ a: [Row], _ b: [Row]) -> Bool { Set(a) == Set(b) }

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
