import QueryEngine
import Relational
import XCTest
@testable import QueryEngine
@testable import Verification

/// Random transactions on random graphs (shared subexpressions, self-joins, renames,
/// differences, nulls, empty tables: whatever the case generator draws): incremental
/// propagation is exact and equals a requery, under every flag combination.
final class ChangePropagationTests: XCTestCase {
    private func cases(_ count: Int, seed: UInt64, transactions: Int) -> [(CaseGraph, [[RandomStatement]])] {
        let fuzzer = Fuzzer(cases: count, seed: seed)
        return (0..<count).map { i in
            let graph = fuzzer.makeCase(i)
            var random = VerificationRandom(seed: seed &+ 1, case: i)
            return (graph, RandomTransactions.make(for: graph, count: transactions, &random))
        }
    }

    func testIncrementalEqualsRequeryUnderEveryFlagCombination() throws {
        let flagSets = try FlagGrid.tests().flagSets()
        XCTAssertGreaterThan(flagSets.count, 20)
        var refused = 0
        var nonEmpty = 0
        for (n, (graph, transactions)) in cases(25, seed: 11, transactions: 4).enumerated() {
            // `incremental` under every flag set; `incremental-single`, which builds the same
            // rules as one graph, under every third (the test took six minutes with both).
            for (f, flags) in flagSets.enumerated() {
                for mode in f % 3 == n % 3 ? [.incremental, .incrementalSingle] : [TransactionalDatabase.Mode.incremental] {
                    let problems = try ChangeCheck.check(graph, transactions: transactions, flags: flags, mode: mode)
                    XCTAssertEqual(problems, [], "case \(n) under \(flags), \(mode)")
                    if !problems.isEmpty { return }
                }
            }
            refused += try countRefused(graph, transactions)
            nonEmpty += graph.tables.isEmpty ? 0 : 1
        }
        XCTAssertGreaterThan(nonEmpty, 15)
        XCTAssertGreaterThan(refused, 0, "some random transactions should be refused (merging updates)")
    }

    func testManyRandomCasesUnderAllOnAllOffAndRandomFlags() throws {
        let grid = FlagGrid.verify()
        var random = VerificationRandom(seed: 99)
        let allOn = try QueryEngine(preset: "all-on").flags
        let allOff = try QueryEngine(preset: "all-off").flags
        for (n, (graph, transactions)) in cases(300, seed: 23, transactions: 5).enumerated() {
            for flags in [allOn, allOff, try grid.randomFlagSet(&random)] {
                let problems = try ChangeCheck.check(graph, transactions: transactions, flags: flags)
                XCTAssertEqual(problems, [], "case \(n) under \(flags)")
                if !problems.isEmpty { return }
            }
        }
    }

    /// The counted mode on the same random cases (every operator, nulls, 3 vs 3.0, shared
    /// subexpressions, refused transactions), with and without declared keys: exact after
    /// every transaction. Flags do not change its work; it runs under all-off.
    func testCountedEqualsRequeryOnManyRandomCases() throws {
        let allOff = try QueryEngine(preset: "all-off").flags
        var closures = 0
        for (n, (graph, transactions)) in cases(300, seed: 23, transactions: 5).enumerated() {
            closures += graph.nodes.contains {
                if case let .apply(op, _) = $0 { return op.kind == .closure }
                return false
            } ? 1 : 0
            let problems = try ChangeCheck.check(graph, transactions: transactions, flags: allOff, mode: .counted,
                                                 declareKeys: n % 2 == 1)
            XCTAssertEqual(problems, [], "case \(n)")
            if !problems.isEmpty { return }
        }
        XCTAssertGreaterThan(closures, 0, "no random case had a closure")
    }

    /// Declared keys: transactions that would repeat a key are refused (changing nothing),
    /// the others propagate exactly, and no key is ever repeated.
    func testDeclaredKeysHoldAfterEveryTransaction() throws {
        let flags = try QueryEngine(preset: "all-on").flags
        for (n, (graph, transactions)) in cases(150, seed: 31, transactions: 5).enumerated() {
            XCTAssertEqual(try ChangeCheck.check(graph, transactions: transactions, flags: flags, declareKeys: true), [],
                           "case \(n)")
        }
    }

    func testRequeryModeGivesTheSameChanges() throws {
        let flags = try QueryEngine(preset: "all-on").flags
        for (n, (graph, transactions)) in cases(60, seed: 5, transactions: 4).enumerated() {
            XCTAssertEqual(try ChangeCheck.check(graph, transactions: transactions, flags: flags, mode: .requery), [],
                           "case \(n)")
        }
    }

    /// Transactions refused by the checks (and so rolled back) in one case.
    private func countRefused(_ graph: CaseGraph, _ transactions: [[RandomStatement]]) throws -> Int {
        var targets = ChangeCheck.Targets(tables: [:], nodes: [:])
        for t in graph.tables {
            let table = try MemoryTable(name: t.name, scheme: t.scheme)
            try table.add(contentsOf: t.rows)
            targets.tables[t.name] = Relation(source: table)
        }
        let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-off"))
        var refused = 0
        for statements in transactions {
            do {
                try db.transaction { for s in statements { try ChangeCheck.apply(s, db, targets) } }
            } catch is ChangeError { refused += 1 }
        }
        return refused
    }
}
