import XCTest
import QueryEngine
@testable import Verification

/// The heuristics added after the seed under the fuzzer, with their tunables at values the
/// grid leaves at default: ranges instead of IN-sets (`join-filter-pushdown-max-keys` 0 and
/// 1), set-operand filters of at most 0, 1 or 10,000 rows, join-filter-threshold 0 and 1 so
/// the pushdown acts on most joins; over tables of up to 60 rows. And the same cases do
/// reach each heuristic, so the answers checked are ones it changed the work of.
final class LaterHeuristicsFuzzTests: XCTestCase {
    static let seed: UInt64 = 15

    func grid() -> FlagGrid {
        var values = FlagGrid.verify().values
        values["join-filter-threshold"] = ["0", "1", "100"]
        values["join-filter-pushdown-max-keys"] = ["0", "1", "10000"]
        values["set-operand-filter-max-rows"] = ["0", "1", "10000"]
        return FlagGrid(values: values)
    }

    func testTunedLaterHeuristicsChangeNoAnswer() throws {
        var fuzzer = Fuzzer(cases: 500, seed: Self.seed, grid: grid())
        fuzzer.maxRows = 60
        fuzzer.reduce = false
        fuzzer.reproParent = nil
        let report = try fuzzer.run()
        XCTAssertEqual(report.cases, 500)
        XCTAssertEqual(report.mismatches, 0, report.firstMismatches.first.map(String.init(describing:)) ?? "")
    }

    /// Each later heuristic changes the rows read of some of these cases (against `all-on`
    /// without it), so the fuzz run above exercises it.
    func testTheCasesReachEachLaterHeuristic() throws {
        var fuzzer = Fuzzer(cases: 300, seed: Self.seed)
        fuzzer.maxRows = 60
        let catalog = HeuristicCatalog.standard
        let ranges = try catalog.flagSet(preset: "all-on", set: ["join-filter-threshold": "0", "join-filter-pushdown-max-keys": "0"])
        var changed: [String: Int] = [:]
        var rangeFilters = 0
        for index in 0..<300 {
            let graph = fuzzer.makeCase(index)
            guard !graph.outputs.isEmpty, let loaded = try? LoadedCase(graph) else { continue }
            // join-filter-threshold 1 leaves most joins of these small tables to the pushdown.
            let base = ["join-filter-threshold": "1"]
            let allOn = try QueryEngine(flags: catalog.flagSet(preset: "all-on", set: base)).run(loaded.memoryOutputs).counters
            for name in ["filter-aware-ordering", "join-filter-pushdown", "set-operand-filter", "late-filter-narrowing"] {
                let without = try QueryEngine(flags: catalog.flagSet(preset: "all-on", disable: [name], set: base))
                    .run(loaded.memoryOutputs).counters
                if without.sourceRowsRead != allOn.sourceRowsRead || without.initiatorOrder != allOn.initiatorOrder {
                    changed[name, default: 0] += 1
                }
            }
            if try QueryEngine(flags: ranges).run(loaded.memoryOutputs).counters.joinFiltersBuilt > 0 { rangeFilters += 1 }
        }
        print("later heuristics changed the work of", changed, "cases of 300;", rangeFilters, "built range filters")
        for name in ["filter-aware-ordering", "join-filter-pushdown", "set-operand-filter", "late-filter-narrowing"] {
            XCTAssertGreaterThan(changed[name] ?? 0, 1, name)
        }
        XCTAssertGreaterThan(rangeFilters, 20)
    }
}
