import FileSupport
import QueryEngine
import Relational
import Workloads
import XCTest
@testable import Verification

/// Feeds the fuzzer a deliberately broken engine and checks that it finds the mismatch,
/// reduces it to a few nodes and rows, and writes a repro directory that replays.
final class ReducerTests: XCTestCase {
    func testFuzzerFindsAndReducesABrokenJoinFilter() throws {
        let parent = try temporaryDirectory("reducer")
        var fuzzer = Fuzzer(cases: 300, seed: 5, grid: FlagGrid(catalog: BrokenJoinFilter.catalog, values: FlagGrid.tests().values))
        fuzzer.maxReductions = 1
        fuzzer.reproParent = parent
        let report = try fuzzer.run()
        XCTAssertGreaterThan(report.mismatches, 0, "the broken heuristic went unnoticed")
        let (reduced, path) = try XCTUnwrap(report.reduced.first)
        let original = try XCTUnwrap(report.firstMismatches.first)
        XCTAssertTrue(original.kind.blamesEngine)

        // A join of two tables is all it takes: at most 4 nodes and 4 rows.
        XCTAssertLessThanOrEqual(reduced.graph.nodeCount, 4, "\(reduced.mismatch)")
        XCTAssertLessThanOrEqual(reduced.graph.rowCount, 4, "\(reduced.mismatch)")
        XCTAssertTrue(reduced.graph.reachableNodes.contains { if case .apply(.join, _) = reduced.graph.nodes[$0] { return true } else { return false } })
        XCTAssertTrue(reduced.flags.isOn(BrokenJoinFilter.broken))

        // The repro directory holds the files and replays the mismatch with the broken
        // engine, and passes with the standard one.
        let dir = try XCTUnwrap(path)
        for file in ["query.rq", "manifest.txt", "command.txt", "mismatch.txt"] {
            XCTAssertTrue(FileSystem.exists(dir + "/" + file), file)
        }
        for t in reduced.graph.tables { XCTAssertTrue(FileSystem.exists(dir + "/\(t.name).csv")) }
        XCTAssertEqual(try FileSystem.readText(dir + "/command.txt"), "swift run -c release testbed verify --repro \(dir)\n")
        XCTAssertFalse(try ReproDirectory.replay(dir, catalog: BrokenJoinFilter.catalog).isEmpty)
        XCTAssertTrue(try ReproDirectory.replay(dir).isEmpty)
    }

    func testReducerShrinksRowsAndOutputsOfAHandBuiltFailure() throws {
        // A wide case where only one key matters.
        let left = CaseTable(name: "l", scheme: try Scheme(["k"]), rows: (0..<12).map { Row([.integer($0)]) }, indexedAttributes: ["k"])
        let right = CaseTable(name: "r", scheme: try Scheme(["k", "v"]),
                              rows: (0..<12).map { Row([.integer($0), .text("v\($0)")]) }, indexedAttributes: ["k"])
        let graph = CaseGraph(tables: [left, right], nodes: [
            .table(0), .table(1), .apply(.join([JoinPair("k", "k")]), [0, 1]), .apply(.select(Attribute("k") *>= 0), [2]),
            .apply(.project(try Scheme(["v"])), [3]),
        ], outputs: [4, 2])
        let catalog = BrokenJoinFilter.catalog
        let flags = try catalog.preset("all-on")
        let checker = try CaseChecker(graph, catalog: catalog)
        let found = checker.check(flags: flags, backend: .sqlite)
        let first = try XCTUnwrap(found.first)
        let (reduced, checks) = Reducer(catalog: catalog).reduce(
            FailingCase(graph: graph, flags: flags, backend: .sqlite, mismatch: first))
        XCTAssertGreaterThan(checks, 0)
        XCTAssertLessThanOrEqual(reduced.graph.nodeCount, 3)
        XCTAssertLessThanOrEqual(reduced.graph.rowCount, 3)
        XCTAssertEqual(reduced.backend, .memory)
        XCTAssertEqual(reduced.graph.outputs.count, 1)
    }
}
