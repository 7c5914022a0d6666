import QueryEngine
import Relational
import XCTest
@testable import Verification

/// Batch boundaries must not matter: random graphs over tables of a few hundred rows (so a
/// source takes many batches of 1, 2 or 3 rows and one of 1024) give the reference
/// evaluator's and SQLite's rows at every batch size, under one flag set per case.
final class BatchBoundaryTests: XCTestCase {
    static let batchSizes = [1, 2, 3, 1024]

    func testBatchSizesGiveTheSameResultsOnLargerTables() throws {
        let fuzzer = Fuzzer(cases: 40, seed: 20_261_123)
        let grid = FlagGrid.verify()
        var runs = 0, joinsSeen = 0
        for index in 0..<fuzzer.cases {
            var random = VerificationRandom(seed: 99, case: index)
            let graph = Self.enlarged(fuzzer.makeCase(index), rows: 300, &random)
            guard !graph.tables.isEmpty else { continue }
            joinsSeen += graph.nodes.filter { if case .apply(.join, _) = $0 { return true } else { return false } }.count
            let checker = try CaseChecker(graph)
            XCTAssertEqual(checker.oracleMismatches().count, 0, "case \(index): the oracles disagree")
            let flags = try grid.randomFlagSet(&random)
            // Each batch size's rows must equal the reference evaluator's and SQLite's, with no
            // row delivered twice (the checker's oracles), so they equal each other.
            for batchSize in Self.batchSizes {
                let found = checker.check(flags: flags, backend: .memory, batchSize: batchSize)
                XCTAssertEqual(found.count, 0, "case \(index), batch size \(batchSize): \(found.first.map(String.init(describing:)) ?? "")")
                runs += 1
            }
        }
        XCTAssertGreaterThanOrEqual(runs, 120)
        XCTAssertGreaterThan(joinsSeen, 10, "the cases exercise the hash join")
    }

    /// The case with every table's rows redrawn: `rows` rows each over a wider domain than
    /// the fuzzer's (so joins stay small), still with nulls, integral and fractional reals
    /// equal or close to integers, text and blobs in key columns.
    static func enlarged(_ graph: CaseGraph, rows: Int, _ random: inout VerificationRandom) -> CaseGraph {
        let tables = graph.tables.map { table in
            table.replacingRows((0..<rows).map { _ in Row(table.scheme.attributes.map { _ in value(&random) }) })
        }
        return CaseGraph(tables: tables, nodes: graph.nodes, outputs: graph.outputs, partition: graph.partition)
    }

    static func value(_ random: inout VerificationRandom) -> Value {
        let n = random.int(0...120)
        switch random.weighted([70, 8, 4, 8, 5, 2, 3]) {
        case 0: return .integer(Int64(n))
        case 1: return .real(Double(n))
        case 2: return .real(Double(n) + 0.5)
        case 3: return .null
        case 4: return .text(String(n % 7))
        case 5: return .blob([UInt8(n % 3)])
        default: return random.element(of: RandomValues.large) ?? .null
        }
    }
}
