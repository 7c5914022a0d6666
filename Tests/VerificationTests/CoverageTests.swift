import QueryEngine
import Relational
import Workloads
import XCTest
@testable import Verification

/// The random cases reach the heuristics they are meant to test (a fuzzer whose cases never
/// build a join filter or copy a subtree would prove nothing about them).
final class CoverageTests: XCTestCase {
    func testRandomCasesExerciseEveryHeuristic() throws {
        let fuzzer = Fuzzer(cases: 600, seed: 21)
        let engine = try QueryEngine(preset: "all-on")
        var joinFilters = 0, copies = 0, filteredFetches = 0, activations = 0, folded = 0, seeded = 0
        for index in 0..<600 {
            let graph = fuzzer.makeCase(index)
            guard !graph.outputs.isEmpty else { continue }
            let run = try engine.run(LoadedCase(graph).memoryOutputs)
            if run.counters.joinFiltersBuilt > 0 { joinFilters += 1 }
            if run.counters.subtreesCopied > 0 { copies += 1 }
            if run.counters.filteredFetches > 0 { filteredFetches += 1 }
            if run.counters.filtersActivated > 0 { activations += 1 }
            if run.counters.nodesAfterOptimization < run.counters.nodesPlanned { folded += 1 }
            if !run.counters.onDemandRoundRows.isEmpty { seeded += 1 }
        }
        for (name, count) in [("join filters", joinFilters), ("subtree copies", copies),
                              ("filtered fetches", filteredFetches), ("filter activations", activations),
                              ("union flattening", folded)] {
            XCTAssertGreaterThan(count, 15, name)
        }
        // Seeded closures need a closure under a filter pinning one end, on an indexed table.
        XCTAssertGreaterThan(seeded, 5, "seeded closures")
        print("coverage of 600 cases: join filters \(joinFilters), copies \(copies), filtered fetches \(filteredFetches), activations \(activations), flattened \(folded), seeded closures \(seeded)")
    }

    func testDefaultBatchSizeIsTheEngines() throws {
        XCTAssertEqual(try QueryEngine(preset: "all-on").batchSize, CaseChecker.defaultBatchSize)
    }
}
