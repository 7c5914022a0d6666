import FileSupport
import QueryEngine
import Relational
import Workloads
import XCTest
@testable import Verification

/// `testbed hunt`: regret on hand-built cases with known best orders, determinism by seed,
/// a planted regression found and reduced, forced initiator orders, estimate checks.
final class HuntTests: XCTestCase {
    /// big(k): 1,000 rows indexed on k; small(k): one row. `big join small`.
    private func lookupCase() throws -> CaseGraph {
        let big = CaseTable(name: "big", scheme: try Scheme(["k"]), rows: (0..<1000).map { Row([.integer($0)]) },
                            indexedAttributes: ["k"])
        let small = CaseTable(name: "small", scheme: try Scheme(["k"]), rows: [Row([.integer(7)])])
        return CaseGraph(tables: [big, small], nodes: [.table(0), .table(1), .apply(.join([JoinPair("k", "k")]), [0, 1])],
                         outputs: [2])
    }

    /// all-on, all-off, and the seed preset without join filters and in declaration order.
    private func lookupGrid(_ names: [String] = ["all-on", "all-off", "seed-no-join-filter", "seed-declaration"]) throws -> HuntGrid {
        let catalog = HeuristicCatalog.standard
        let all: [String: FlagSet] = [
            "all-on": try catalog.preset("all-on"), "all-off": try catalog.preset("all-off"),
            "seed-no-join-filter": try catalog.flagSet(preset: "seed", set: ["join-filter-threshold": "0"]),
            "seed-declaration": try catalog.flagSet(preset: "seed", set: ["initiator-ordering": "declaration"]),
        ]
        return try HuntGrid(flagSets: try names.map { HuntFlagSet(name: $0, flags: try XCTUnwrap(all[$0])) })
    }

    func testRegretOnAHandBuiltLookupWithAKnownBestOrder() throws {
        let grid = try lookupGrid()
        let regret = try RegretMeasurer(grid: grid).measure(try lookupCase())
        let rows = regret.runs.map(\.rowsRead)
        // all-on drains small (1 row) first; its key becomes an IN filter fetching 1 row of big.
        // The seed's heuristics without join filters, or draining big first (declaration
        // order), read all 1,001 rows.
        XCTAssertEqual(rows, [2, 1001, 1001, 1001])
        XCTAssertEqual(regret.bestRows, 2)
        XCTAssertEqual(regret.runs.map { regret.regret($0) }, [1, 500.5, 500.5, 500.5])
        // Both orders of the two sources were tried under seed: [big, small] and [small, big].
        XCTAssertEqual(regret.orderRuns.map(\.rowsRead), [1001, 2])
        XCTAssertEqual(regret.bestOrder, 1)
        XCTAssertEqual(regret.disagreements, 0)
        XCTAssertEqual(regret.runs.map(\.resultRows), [1, 1, 1, 1])
    }

    func testTheBestForcedOrderSetsTheDenominatorWhenNoFlagSetFindsIt() throws {
        // Only the seed in declaration order in the grid, and it drains big first: the forced order
        // [small, big] is the best run, so every flag set of the grid has regret 500.5.
        let grid = try lookupGrid(["seed-declaration"])
        let regret = try RegretMeasurer(grid: grid).measure(try lookupCase())
        XCTAssertEqual(regret.runs.map(\.rowsRead), [1001])
        XCTAssertEqual(regret.bestRows, 2)
        XCTAssertEqual(regret.regret(regret.runs[0]), 500.5)
    }

    func testACaseDoingMoreWorkThanTheBoundIsSkipped() throws {
        var measurer = RegretMeasurer(grid: try HuntGrid(names: ["all-on"]))
        // Under all-off the lookup moves 1,001 rows out of the sources, 1,001 into the join, 1 out.
        measurer.maxWork = 2002
        XCTAssertThrowsError(try measurer.measure(try lookupCase())) { XCTAssertTrue($0 is RegretMeasurer.TooMuchWork, "\($0)") }
        measurer.maxWork = 2003
        XCTAssertNoThrow(try measurer.measure(try lookupCase()))
    }

    /// A join of two tables whose rows all share one key makes their product: the all-off
    /// run is stopped once its emitted rows pass the bound, before it completes, and the
    /// case is skipped.
    func testARunThatOutgrowsTheBoundIsStoppedPartWay() throws {
        let rows = (0..<300).map { Row([.integer($0), .integer(1)]) }  // (a or b, k): attributes in order
        let left = CaseTable(name: "l", scheme: try Scheme(["k", "a"]), rows: rows)
        let right = CaseTable(name: "r", scheme: try Scheme(["k", "b"]), rows: rows)
        let product = CaseGraph(tables: [left, right],
                                nodes: [.table(0), .table(1), .apply(.join([JoinPair("k", "k")]), [0, 1])], outputs: [2])
        var measurer = RegretMeasurer(grid: try HuntGrid(names: ["all-on"]))
        measurer.maxWork = 10_000
        XCTAssertThrowsError(try measurer.measure(product)) { error in
            let tooMuch = error as? RegretMeasurer.TooMuchWork
            XCTAssertNotNil(tooMuch, "\(error)")
            XCTAssertNil(tooMuch?.work, "the run should have been stopped, not completed")
        }
        measurer.maxWork = 200_000
        XCTAssertEqual(try measurer.measure(product).runs.first?.resultRows, 90_000)
    }

    func testZeroCountsAreTakenAsOne() {
        XCTAssertEqual(CaseRegret.ratio(0, 0), 1)
        XCTAssertEqual(CaseRegret.ratio(5, 0), 5)
        XCTAssertEqual(CaseRegret.ratio(12, 4), 3)
    }

    func testForcedInitiatorOrderDrainsSourcesInEveryPermutation() throws {
        let tables = try ["a", "b", "c"].map { name in
            CaseTable(name: name, scheme: try Scheme(["k"]), rows: (0..<3).map { Row([.integer($0)]) })
        }
        let graph = CaseGraph(tables: tables, nodes: [
            .table(0), .table(1), .table(2), .apply(.union, [0, 1]), .apply(.union, [3, 2]),
        ], outputs: [4])
        let grid = try HuntGrid(names: ["all-on"])
        let outputs = try RegretMeasurer.memoryOutputs(graph)
        var seen: [[String]] = []
        for rank in 0..<Permutations.count(3) {
            let engine = QueryEngine(flags: try grid.withOrder(grid.flagSets[0].flags, rank), catalog: grid.engineCatalog)
            let order = try engine.run(outputs).counters.initiatorOrder
            XCTAssertEqual(order, Permutations.nth(rank, of: ["a", "b", "c"]), "rank \(rank)")
            seen.append(order)
        }
        XCTAssertEqual(Set(seen.map { $0.joined() }).count, 6, "every order once")
        XCTAssertEqual(Permutations.nth(0, of: [1, 2, 3]), [1, 2, 3])
        XCTAssertEqual(Permutations.nth(5, of: [1, 2, 3]), [3, 2, 1])
        XCTAssertEqual(Permutations.nth(6, of: [1, 2, 3]), [1, 2, 3], "ranks wrap")
    }

    /// The columns that do not depend on the clock.
    private func countColumns(_ csv: String) -> [String] {
        let timeColumns: Set<Int> = [6, 7, 8, 10]  // run_us, best_run_us, time_regret, order_time_ratio
        return csv.split(separator: "\n").map { line in
            var fields: [String] = []
            var field = "", quoted = false
            for c in line {
                if c == "\"" { quoted.toggle() } else if c == "," && !quoted { fields.append(field); field = "" } else { field.append(c) }
            }
            fields.append(field)
            return fields.enumerated().filter { !timeColumns.contains($0.offset) }.map(\.element).joined(separator: ",")
        }
    }

    func testHuntIsDeterministicBySeed() throws {
        func hunt(_ seed: UInt64) throws -> (String, [CaseGraph]) {
            var hunter = try Hunter(cases: 12, seed: seed, maxRows: 200, grid: try HuntGrid())
            hunter.maxReductions = 1
            hunter.reductionBudget = 60
            hunter.robustnessOrders = 2
            let report = try hunter.run()
            XCTAssertEqual(report.disagreements, 0)
            return (HuntFiles.regretCSV(report, grid: hunter.grid), report.reduced.map(\.graph))
        }
        let (first, reducedFirst) = try hunt(3)
        let (again, reducedAgain) = try hunt(3)
        let (other, _) = try hunt(4)
        XCTAssertEqual(countColumns(first), countColumns(again))
        XCTAssertEqual(reducedFirst, reducedAgain)
        XCTAssertNotEqual(countColumns(first), countColumns(other), "another seed hunts other queries")
        XCTAssertEqual(first.split(separator: "\n").first.map(String.init),
                       "case,flagset,flags,source_rows_read,best_rows_read,regret,run_us,best_run_us,time_regret,"
                        + "order_ratio,order_time_ratio,result_rows,sources,nodes,table_rows")
    }

    func testAPlantedReadEverythingHeuristicIsFoundAndReducedToASmallCase() throws {
        let grid = try HuntGrid(catalog: PlantedReadEverything.catalog)
        XCTAssertNotNil(grid.index(of: "no-read-everything"), "every heuristic is measured switched off alone")
        // Only the planted heuristic on and off, no forced orders: all-on's regret is then
        // exactly what the planted heuristic costs.
        let pair = try HuntGrid(catalog: PlantedReadEverything.catalog, names: ["all-on", "no-read-everything"])
        var hunter = try Hunter(cases: 60, seed: 11, maxRows: 500, minRegret: 4, grid: pair)
        hunter.maxReductions = 1
        hunter.robustnessOrders = 0
        hunter.measurer.maxOrderSources = 0
        let report = try hunter.run()
        let allOn = try XCTUnwrap(grid.index(of: "all-on"))
        XCTAssertGreaterThan(RegretStatistics(report.regrets(allOn)).max, 4, "the planted regression went unnoticed")
        let reduced = try XCTUnwrap(report.reduced.first)
        XCTAssertLessThan(reduced.regret.regret(reduced.regret.runs[1]), 4, "switching the planted heuristic off recovers it")
        XCTAssertLessThanOrEqual(reduced.graph.nodeCount, 4, "\(reduced.graph)")
        XCTAssertGreaterThanOrEqual(reduced.regret.regret(reduced.regret.runs[allOn]), 4)
        XCTAssertGreaterThanOrEqual(reduced.regret.runs[allOn].rowsRead - reduced.regret.bestRows, 20)

        // The repro directory replays: the planted catalog still shows the regret, the
        // standard engine does not.
        let parent = try temporaryDirectory("hunt")
        let path = try RegretRepro.write(reduced, grid: pair, chosen: "all-on", minRegret: 4, id: "planted", under: parent)
        for file in ["query.rq", "manifest.txt", "regret.txt", "command.txt"] {
            XCTAssertTrue(FileSystem.exists(path + "/" + file), file)
        }
        let contents = try RegretRepro.read(path, catalog: PlantedReadEverything.catalog)
        XCTAssertEqual(contents.flagSet, "all-on")
        XCTAssertEqual(contents.minRegret, 4)
        var measurer = RegretMeasurer(grid: pair)
        measurer.maxOrderSources = 0
        let again = try measurer.measure(contents.graph)
        XCTAssertGreaterThanOrEqual(again.regret(again.runs[allOn]), 4)
        // The standard all-on reads fewer rows than the planted one on the reduced case.
        let standard = try HuntGrid(names: ["all-on"])
        let fixed = try RegretMeasurer(grid: standard).measure(contents.graph)
        XCTAssertLessThan(fixed.runs[0].rowsRead, again.runs[allOn].rowsRead)
    }

    func testUnknownFlagSetNamesAreRefused() {
        XCTAssertThrowsError(try HuntGrid(names: ["all-onn"])) { XCTAssertTrue("\($0)".contains("'all-onn' is not a flag set"), "\($0)") }
        XCTAssertThrowsError(try HuntGrid(names: ["no-such-thing"]))
        XCTAssertThrowsError(try HuntGrid(names: ["join-filter-threshold=x"]))
        XCTAssertThrowsError(try Hunter(cases: 1, seed: 1, grid: try HuntGrid(names: ["seed"]), chosen: "all-on"))
    }

    /// A source whose estimate grows with the filter's text: `p and q` is estimated larger
    /// than `p`, the violation the checks exist to find.
    private final class TextLengthEstimates: SourceRelation {
        let scheme: Scheme
        let sourceName = "t"
        init(_ scheme: Scheme) { self.scheme = scheme }
        func makeCursor(filter: Relational.Predicate?) throws -> any RowCursor { ArrayCursor([]) }
        func canFetchSelectively(_ filter: Relational.Predicate) -> Bool { false }
        func estimatedCount(filter: Relational.Predicate?) -> Int? { filter.map { "\($0)".count } ?? 0 }
    }

    func testEstimateChecksFindAnEstimateThatGrowsWithItsFilter() throws {
        let table = CaseTable(name: "t", scheme: try Scheme(["a", "b"]), rows: (0..<50).map { Row([.integer($0), .integer($0 % 7)]) })
        var random = VerificationRandom(seed: 1)
        let found = EstimateChecks.check([table], sources: [("fake", TextLengthEstimates(table.scheme))], &random, pairs: 4)
        XCTAssertTrue(found.contains { $0.weaker != "(no filter)" && $0.strongerEstimate > $0.weakerEstimate }, "\(found)")
        XCTAssertTrue(found.contains { $0.weaker == "(no filter)" })
    }

    func testMemoryAndSQLiteEstimatesAreMonotoneOnRandomCases() throws {
        var violations: [EstimateViolation] = []
        for index in 0..<40 {
            var random = VerificationRandom(seed: 21, case: index)
            let graph = RandomCaseGenerator(maxRows: 300).makeCase(&random)
            violations += try EstimateChecks.check(graph, &random)
        }
        XCTAssertEqual(violations.count, 0, violations.prefix(3).map { "\($0)" }.joined(separator: "\n"))
    }
}
