import QueryEngine
import Relational

/// `testbed verify --random N --seed S --changes`: N random cases, each with random
/// transactions, propagated incrementally under `all-off` and a few random flag sets (the
/// staged and the one-graph incremental modes in turn), then by the counted mode, and
/// checked after every transaction
/// (`ChangeCheck`). A failure is reduced, shrinking the
/// graph and the transaction list together, and written as a repro directory
/// (`ChangeReproDirectory`). Case `i` depends only on (seed, i).
public struct ChangeFuzzer {
    public var cases: Int
    public var seed: UInt64
    public var transactionsPerCase = 5
    /// Random flag sets per case, on top of `all-off`.
    public var runsPerCase = 3
    public var grid: FlagGrid
    public var reduce = true
    public var maxReductions = 10
    /// Where reduced failures go (`<dir>/changes-s<seed>-<case>/`); nil writes nothing.
    public var reproParent: String? = ReproDirectory.defaultParent

    public init(cases: Int, seed: UInt64, grid: FlagGrid = .verify()) {
        self.cases = cases
        self.seed = seed
        self.grid = grid
    }

    /// Case `index`: its graph and transactions.
    public func makeCase(_ index: Int) -> (CaseGraph, [[RandomStatement]]) {
        var random = VerificationRandom(seed: seed, case: index)
        let graph = RandomCaseGenerator().makeCase(&random)
        return (graph, RandomTransactions.make(for: graph, count: transactionsPerCase, &random))
    }

    public func run(progress: ((VerificationProgress) -> Void)? = nil) throws -> ChangeFuzzReport {
        var report = ChangeFuzzReport()
        let allOff = try grid.catalog.preset("all-off")
        let step = max(1, min(1000, cases / 20))
        for index in 0..<cases {
            var (graph, transactions) = makeCase(index)
            var random = VerificationRandom(seed: seed ^ 0xC4A9_6E5, case: index)
            report.cases += 1
            // Odd cases declare keys (see `ChangeCheck`), so key refusals are exercised too.
            let keys = index % 2 == 1
            var flagSets = [allOff]
            for _ in 0..<runsPerCase { flagSets.append(try grid.randomFlagSet(&random)) }
            // The staged and one-graph incremental modes in turn, then the counted mode once
            // (flags do not change its work; it runs under the last flag set).
            var runs: [(FlagSet, TransactionalDatabase.Mode)] = flagSets.enumerated().map { run, flags in
                (flags, run % 2 == 0 ? .incremental : .incrementalSingle)
            }
            runs.append((flagSets[flagSets.count - 1], .counted))
            for (flags, mode) in runs {
                report.runs += 1
                report.transactions += transactions.count
                let problems = Self.problems(graph, transactions, flags, mode: mode, declareKeys: keys, catalog: grid.catalog)
                if problems.isEmpty { continue }
                report.failures += 1
                if reduce && report.reduced.count < maxReductions {
                    (graph, transactions) = ChangeReducer(mode: mode, declareKeys: keys, catalog: grid.catalog)
                        .reduce(graph, transactions, flags)
                }
                let failure = ChangeFailure(
                    caseIndex: index, graph: graph, transactions: transactions, flags: flags, mode: mode,
                    declareKeys: keys,
                    problems: Self.problems(graph, transactions, flags, mode: mode, declareKeys: keys, catalog: grid.catalog))
                report.reduced.append(failure)
                if reduce, let parent = reproParent, report.reproPaths.count < maxReductions {
                    report.reproPaths.append(try ChangeReproDirectory.write(failure, id: "changes-s\(seed)-\(index)", under: parent))
                }
                break
            }
            if let progress, (index + 1) % step == 0 || index + 1 == cases {
                progress(VerificationProgress(done: index + 1, total: cases, mismatches: report.failures))
            }
        }
        return report
    }

    /// The check's problems; an error thrown by the engine or the evaluator is one too. A
    /// graph that does not type-check (a reduction candidate can be one) has none.
    static func problems(
        _ graph: CaseGraph, _ transactions: [[RandomStatement]], _ flags: FlagSet,
        mode: TransactionalDatabase.Mode, declareKeys: Bool, catalog: HeuristicCatalog = .standard
    ) -> [String] {
        let probe = graph.tables.map { t in Relation(source: EmptySource(scheme: t.scheme)) }
        guard (try? graph.relations(over: probe)) != nil else { return [] }
        do {
            return try ChangeCheck.check(graph, transactions: transactions, flags: flags, mode: mode,
                                         declareKeys: declareKeys, catalog: catalog)
        } catch {
            return ["error: \(error)"]
        }
    }
}

/// Shrinks a failing change case: fewer transactions, fewer statements, fewer outputs,
/// nodes replaced by their operands, fewer table rows; keeps each step that still fails.
struct ChangeReducer {
    var mode: TransactionalDatabase.Mode
    var declareKeys: Bool
    var catalog: HeuristicCatalog = .standard
    var budget = 2000

    func reduce(_ graph: CaseGraph, _ transactions: [[RandomStatement]], _ flags: FlagSet)
        -> (CaseGraph, [[RandomStatement]])
    {
        var g = graph
        var t = transactions
        var checks = 0
        func fails(_ cg: CaseGraph, _ ct: [[RandomStatement]]) -> Bool {
            checks += 1
            return !ChangeFuzzer.problems(cg, ct, flags, mode: mode, declareKeys: declareKeys, catalog: catalog).isEmpty
        }
        var progress = true
        while progress && checks < budget {
            progress = false
            for i in t.indices.reversed() where checks < budget {
                var c = t
                c.remove(at: i)
                if fails(g, c) { t = c; progress = true }
            }
            for i in t.indices.reversed() {
                for j in t[i].indices.reversed() where t[i].count > 1 && checks < budget {
                    var c = t
                    c[i].remove(at: j)
                    if fails(g, c) { t = c; progress = true }
                }
            }
            for c in GraphCandidates.droppingOutputs(g) + GraphCandidates.hoistingOperands(g) where checks < budget {
                if fails(c, t) { g = c; progress = true; break }
            }
            for k in g.tables.indices {
                for r in g.tables[k].rows.indices.reversed() where checks < budget && r < g.tables[k].rows.count {
                    var c = g
                    var rows = c.tables[k].rows
                    rows.remove(at: r)
                    c.tables[k] = c.tables[k].replacingRows(rows)
                    if fails(c, t) { g = c; progress = true }
                }
            }
        }
        return (g, t)
    }
}

public struct ChangeFuzzReport {
    public var cases = 0
    public var runs = 0
    public var transactions = 0
    public var failures = 0
    public var reduced: [ChangeFailure] = []
    /// Repro directories written, in the order of `reduced`.
    public var reproPaths: [String] = []

    public var passed: Bool { failures == 0 }

    public var summary: String {
        "\(cases) cases, \(runs) runs, \(transactions) transactions checked, \(failures) failed"
    }
}

/// A (reduced) failing change case, printable as its tables, graph, transactions and flags.
public struct ChangeFailure: CustomStringConvertible {
    public let caseIndex: Int
    public let graph: CaseGraph
    public let transactions: [[RandomStatement]]
    public let flags: FlagSet
    public let mode: TransactionalDatabase.Mode
    /// Whether tables whose first attribute is a key declared it (odd cases).
    public let declareKeys: Bool
    public let problems: [String]

    public var description: String {
        var out = "random change case \(caseIndex), mode \(mode.rawValue)\(declareKeys ? ", declared keys" : ""), under \(flags.canonical)\n"
        for t in graph.tables {
            out += "table \(t.name) \(t.scheme): \(t.rows.map { $0.values.map(\.description).joined(separator: ", ") })\n"
        }
        for (i, n) in graph.nodes.enumerated() { out += "node \(i): \(n)\n" }
        out += "outputs: \(graph.outputs)\n"
        for (i, statements) in transactions.enumerated() {
            out += "transaction \(i): " + statements.map(\.description).joined(separator: "; ") + "\n"
        }
        return out + problems.joined(separator: "\n")
    }
}
