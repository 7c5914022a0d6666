import QueryEngine
import Relational
import Workloads
import XCTest
@testable import Verification

final class CatalogVerificationTests: XCTestCase {
    /// `testbed verify` on the catalog at small sizes (the tests' grid, both backends).
    func testCatalogAtSmallSizesPasses() throws {
        let queries = try QueryCatalog.load()
        XCTAssertFalse(queries.isEmpty)
        var verification = CatalogVerification(queries: queries, sizes: [12, 40], seeds: [5], grid: .tests())
        verification.reduce = false
        verification.reproParent = nil
        var progressCalls = 0
        let report = try verification.run(progress: { _ in progressCalls += 1 })
        // Each query on its shape's default dataset and on each trigger variant, at 2 sizes.
        let datasetsPerSize = queries.compactMap(\.shape).map { verification.parameterSets($0).count }.reduce(0, +)
        XCTAssertGreaterThan(datasetsPerSize, queries.filter { $0.shape != nil }.count)
        XCTAssertEqual(report.cases, datasetsPerSize * 2)
        // 48 combinations of the seed's flags, × closure-seeding on/off, × 2 backends.
        XCTAssertEqual(report.engineRuns, report.cases * 96 * 2 * 2)
        XCTAssertEqual(progressCalls, report.cases)
        XCTAssertEqual(report.mismatches, 0, report.firstMismatches.first.map(String.init(describing:)) ?? "")
    }

    func testVerifyGridIsTheIssuesProduct() throws {
        let sets = try FlagGrid.verify().flagSets()
        // 4 on/off (closure-seeding the fourth) × 5 thresholds × 3 orderings × 3 copy limits.
        XCTAssertEqual(sets.count, 16 * 5 * 3 * 3)
        XCTAssertTrue(sets.contains { $0[JoinFilterThreshold.threshold] == Int.max })
        XCTAssertEqual(Set(sets.compactMap { $0[SubtreeCopying.copyLimit] }), [0, 1, 100])
    }
}
