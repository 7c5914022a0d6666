import XCTest
import QueryEngine
@testable import Verification

/// The growth budget refuses copies part-way through a run; a refused copy must leave
/// answers unchanged (the filter goes to the shared node, as when copying declines). The
/// fuzzer's grid only uses each tunable's default, so this run draws small budgets too.
final class GrowthBudgetFuzzTests: XCTestCase {
    static let seed: UInt64 = 20_261_123

    func testSmallGrowthBudgetsChangeNoAnswer() throws {
        var values = FlagGrid.verify().values
        values["graph-growth-budget"] = ["0", "1", "2", "3", "5", "100"]
        values["graph-growth-per-node"] = ["0", "2"]
        var fuzzer = Fuzzer(cases: 400, seed: Self.seed, grid: FlagGrid(values: values))
        fuzzer.reduce = false
        fuzzer.reproParent = nil
        let report = try fuzzer.run()
        XCTAssertEqual(report.cases, 400)
        XCTAssertGreaterThanOrEqual(report.engineRuns, 1200)
        XCTAssertEqual(report.mismatches, 0)
    }

    /// The same cases do reach the budget: with one copied node allowed, some runs have a
    /// copy refused (so the test above checks refusals, not only runs that never copy).
    func testTheCasesReachTheBudget() throws {
        let fuzzer = Fuzzer(cases: 400, seed: Self.seed)
        let flags = try HeuristicCatalog.standard.flagSet(
            preset: "all-on", set: ["graph-growth-budget": "1", "graph-growth-per-node": "0"])
        let engine = QueryEngine(flags: flags)
        var refused = 0
        for index in 0..<400 {
            let graph = fuzzer.makeCase(index)
            guard !graph.outputs.isEmpty else { continue }
            let run = try engine.run(LoadedCase(graph).memoryOutputs)
            XCTAssertLessThanOrEqual(run.counters.nodesCopied, 1)
            if run.counters.copiesRefused > 0 { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 10)
    }
}
