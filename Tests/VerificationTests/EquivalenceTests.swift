import QueryEngine
import Relational
import Workloads
import XCTest
@testable import Verification

/// Issue 3's equivalence bullet: every combination of the test grid (on/off heuristics ×
/// thresholds {0, 1, 100} × orderings smallest-estimate/declaration × copy limits {0, 100})
/// gives the reference evaluator's (and SQLite's) answer, on handcrafted and random graphs.
final class EquivalenceTests: XCTestCase {
    func testTestGridHasEveryCombination() throws {
        // The seed's 3 on/off flags × 3 thresholds × 2 orderings × 2 copy limits, × the 13 later
        // on/off flags all off, all on, or each alone on.
        XCTAssertEqual(try FlagGrid.tests().flagSets().count, 8 * 3 * 2 * 2 * 15)
        XCTAssertEqual(Set(try FlagGrid.tests().flagSets().map(\.canonical)).count, 1440)
    }

    func testHandcraftedGraphsUnderEveryCombination() throws {
        XCTAssertGreaterThanOrEqual(HandcraftedGraphs.all.count, 30)
        for graph in HandcraftedGraphs.all {
            let outputs = try graph.make()
            let found = try mismatches(CaseGraph(outputs: outputs))
            XCTAssertTrue(found.isEmpty, "\(graph.name): \(found.first.map(String.init(describing:)) ?? "")")
        }
    }

    func testHandcraftedGraphsAreNotTrivial() throws {
        // Guard against a fixture silently producing nothing everywhere.
        var nonEmpty = 0
        for graph in HandcraftedGraphs.all {
            let rows = try graph.make().map { try ReferenceEvaluator.evaluate($0) }
            if rows.contains(where: { !$0.isEmpty }) { nonEmpty += 1 }
        }
        XCTAssertGreaterThanOrEqual(nonEmpty, 25)
    }

    func testRandomGraphsUnderEveryCombination() throws {
        let fuzzer = Fuzzer(cases: 25, seed: 3, grid: .tests())
        for index in 0..<25 {
            let graph = fuzzer.makeCase(index)
            let found = try mismatches(graph, backends: [.memory])
            XCTAssertTrue(found.isEmpty, "random case \(index): \(found.first.map(String.init(describing:)) ?? "")")
        }
    }
}
