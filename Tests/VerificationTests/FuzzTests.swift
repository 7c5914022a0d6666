import QueryEngine
import Relational
import Workloads
import XCTest
@testable import Verification

final class FuzzTests: XCTestCase {
    /// The bounded fuzz pass: a fixed seed, 500 random cases against the reference
    /// evaluator, SQLite and the partition oracle.
    func testBoundedFuzzPassFindsNothing() throws {
        var fuzzer = Fuzzer(cases: 500, seed: 20_261_122)
        fuzzer.reduce = false
        fuzzer.reproParent = nil
        let report = try fuzzer.run()
        XCTAssertEqual(report.cases, 500)
        XCTAssertEqual(report.skipped, 0)
        XCTAssertGreaterThanOrEqual(report.engineRuns, 1500)
        XCTAssertEqual(report.mismatches, 0, report.firstMismatches.first.map(String.init(describing:)) ?? "")
    }

    /// `--rows`: tables larger than a batch, some small ones beside them so join filters
    /// fire with many keys, and still no mismatch.
    func testLargeTablesSpanBatchesAndFeedJoinFilters() throws {
        var fuzzer = Fuzzer(cases: 40, seed: 9, grid: .tests())
        fuzzer.maxRows = 200
        fuzzer.reduce = false
        fuzzer.reproParent = nil
        let graphs = (0..<40).map(fuzzer.makeCase)
        XCTAssertEqual(graphs, (0..<40).map(fuzzer.makeCase), "deterministic")
        let sizes = graphs.flatMap(\.tables).map(\.rows.count)
        XCTAssertGreaterThan(sizes.filter { $0 > 64 }.count, 10, "\(sizes)")
        XCTAssertGreaterThan(sizes.filter { $0 <= 5 }.count, 10, "\(sizes)")
        var filters = 0
        for graph in graphs {
            var engine = QueryEngine(flags: try HeuristicCatalog.standard.preset("all-on"))
            engine.batchSize = 64
            filters += try engine.run(LoadedCase(graph).memoryOutputs).counters.joinFiltersBuilt
        }
        XCTAssertGreaterThan(filters, 5)
        let report = try fuzzer.run()
        XCTAssertEqual(report.skipped, 0)
        XCTAssertEqual(report.mismatches, 0, report.firstMismatches.first.map(String.init(describing:)) ?? "")
    }

    func testCasesAreDeterministicBySeed() {
        let a = Fuzzer(cases: 10, seed: 7), b = Fuzzer(cases: 10, seed: 7), c = Fuzzer(cases: 10, seed: 8)
        XCTAssertEqual((0..<10).map(a.makeCase), (0..<10).map(b.makeCase))
        XCTAssertNotEqual((0..<10).map(a.makeCase), (0..<10).map(c.makeCase))
    }

    /// The generator really produces what the fuzzer claims to cover.
    func testGeneratorCoversTheFeatures() {
        let fuzzer = Fuzzer(cases: 400, seed: 11)
        var shared = 0, selfJoins = 0, renames = 0, unions = 0, differences = 0, intersections = 0
        var closures = 0, cyclicClosures = 0
        var emptyTables = 0, oneRowTables = 0, nulls = 0, blobs = 0, reals = 0, texts = 0, projects = 0
        for index in 0..<400 {
            let g = fuzzer.makeCase(index)
            var uses: [Int: Int] = [:]
            for n in g.reachableNodes {
                for o in g.nodes[n].operands { uses[o, default: 0] += 1 }
                guard case let .apply(op, operands) = g.nodes[n] else { continue }
                switch op.kind {
                case .join: if operands[0] == operands[1] { selfJoins += 1 }
                case .rename: renames += 1
                case .union: unions += 1
                case .difference: differences += 1
                case .intersection: intersections += 1
                case .project: projects += 1
                case .select: break
                case .closure:
                    closures += 1
                    // Edges united with their own reverse: every edge lies on a cycle.
                    if case let .apply(.union, parts) = g.nodes[operands[0]], parts.count == 2,
                        case .apply(.rename, [parts[0]]) = g.nodes[parts[1]] {
                        cyclicClosures += 1
                    }
                }
            }
            if uses.values.contains(where: { $0 > 1 }) { shared += 1 }
            for t in g.tables {
                if t.rows.isEmpty { emptyTables += 1 }
                if t.rows.count == 1 { oneRowTables += 1 }
                for v in t.rows.flatMap(\.values) {
                    switch v {
                    case .null: nulls += 1
                    case .blob: blobs += 1
                    case .real: reals += 1
                    case .text: texts += 1
                    case .integer: break
                    }
                }
            }
        }
        for (name, count) in [("shared", shared), ("self-joins", selfJoins), ("renames", renames), ("unions", unions),
                              ("differences", differences), ("closures", closures), ("cyclic closures", cyclicClosures), ("intersections", intersections), ("projects", projects),
                              ("empty tables", emptyTables), ("one-row tables", oneRowTables), ("nulls", nulls),
                              ("blobs", blobs), ("reals", reals), ("texts", texts)] {
            XCTAssertGreaterThan(count, 10, name)
        }
    }
}
