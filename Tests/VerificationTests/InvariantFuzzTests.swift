import QueryEngine
import Relational
import XCTest
@testable import Verification

/// The fuzzer runs the engine in checked mode, so a heuristic that breaks an engine
/// invariant without changing any answer (set semantics hide repeated work) is still a
/// failure: here, one that asks for copies of subtrees that have already delivered rows.
final class InvariantFuzzTests: XCTestCase {
    final class CopiesStartedSubtrees: Heuristic {
        static let on = FlagKey<Bool>("copy-started-subtrees")
        static let flags = [FlagSpec(name: on.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
                                     meaning: "test only: asks for copies of subtrees that have started")]
        static func make(_ flags: FlagSet) -> CopiesStartedSubtrees? { flags.isOn(on) ? .init() : nil }
        func operandCompleted(_ edge: Edge, run: any RunnerContext) {
            run.copySubtree(along: edge)
        }
    }

    func testAnInvariantBrokenWithoutChangingAnswersIsAFailure() throws {
        let catalog = HeuristicCatalog(HeuristicCatalog.standard.heuristics + [CopiesStartedSubtrees.self])
        var fuzzer = Fuzzer(cases: 40, seed: 3, grid: FlagGrid(catalog: catalog, values: FlagGrid.tests().values))
        fuzzer.reduce = false
        fuzzer.reproParent = nil
        let report = try fuzzer.run()
        XCTAssertGreaterThan(report.mismatches, 0)
        let first = try XCTUnwrap(report.firstMismatches.first)
        XCTAssertEqual(first.kind, .engineError)
        XCTAssertTrue(first.detail.contains("engine invariant violated: copy requested along"), first.detail)
        XCTAssertFalse(first.queryText.isEmpty, "the failure names its case")
    }
}
