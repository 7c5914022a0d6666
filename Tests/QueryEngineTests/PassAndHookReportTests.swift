import XCTest
import Relational
@testable import QueryEngine

/// The pipeline reports each pass it ran; the runner reports each hook a heuristic
/// implements, with deterministic call counts; passes are skipped by name.
final class PassAndHookReportTests: XCTestCase {
    func testReportsOnTheSeedScenario() throws {
        let documents = try Fixtures.documents(100)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let run = try QueryEngine(preset: "all-on").run([query])
        XCTAssertEqual(run.passReports.map(\.name), HeuristicCatalog.standard.passNames)
        XCTAssertEqual(HeuristicCatalog.standard.passNames,
                       ["self-operand-folding", "select-folding", "single-operand-union-elimination", "nested-union-folding", "orphan-collection",
                        "difference-to-select"])
        let calls = Dictionary(uniqueKeysWithValues: run.hookReports.map { ($0.name, $0.calls) })
        XCTAssertEqual(calls, [
            "join-filter-threshold.operandCompleted": 6,
            "initiator-ordering.chooseInitiator": 3,
            "subtree-copying.willProvideFilter": 2,
            // select-pushdown, closure-seeding and set-operand-filter cannot act without a
            // select, a closure, an intersection or a difference (`Heuristic.hooks(for:)`):
            // never called here.
            "join-filter-pushdown.operandCompleted": 6,
            "filter-aware-ordering.nodesAdded": 2,  // its pairs and sources, kept per run
            "filter-aware-ordering.deferInitiators": 3,
            "provably-empty-first.deferInitiators": 3,  // asks nothing: every filter here an index answers
            "provably-empty-first.chooseInitiator": 3,
            "sampled-estimate-ordering.chooseInitiator": 3,  // leaves every pick: an index answers each filter
            "late-subtree-copying.willProvideFilter": 2,
            "late-subtree-copying.vetoesCopy": 1,  // asked before the seed's copy, which it allows
            "late-filter-narrowing.filterActivated": 2,
            "join-conjunct-pushdown.filterActivated": 2,
            "join-conjunct-pushdown.nodesAdded": 2,  // the joins active before the first drain
            "join-conjunct-pushdown.operandCompleted": 6,  // a complete side may bind the join's filter (partBound)
        ])
        XCTAssertTrue(run.hookReports.allSatisfy { $0.microseconds >= 0 })
        let off = try QueryEngine(preset: "all-off").run([query])
        XCTAssertEqual(off.passReports.count, 0)
        // all-off still orders initiators (by declaration), and that is the only hook called.
        XCTAssertEqual(off.hookReports.map(\.name), ["initiator-ordering.chooseInitiator"])
    }

    func testPassesAreSkippedByNameAndUnknownNamesRefused() throws {
        let query = try Fixtures.selectedDocumentParent(documents: try Fixtures.documents(20), selected: 3)
        var engine = try QueryEngine(preset: "all-on")
        engine.disabledPasses = ["orphan-collection", "select-folding"]
        XCTAssertEqual(try engine.run([query]).passReports.map(\.name),
                       ["self-operand-folding", "single-operand-union-elimination", "nested-union-folding", "difference-to-select"])
        engine.disabledPasses = ["orphan-colection"]
        XCTAssertThrowsError(try engine.run([query])) { error in
            XCTAssertEqual(error as? UnknownPassError, UnknownPassError(
                name: "orphan-colection", suggestion: "orphan-collection", known: HeuristicCatalog.standard.passNames))
        }
    }
}
