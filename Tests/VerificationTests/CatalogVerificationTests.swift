import QueryEngine
import Relational
import Workloads
import XCTest
@testable import Verification

final class CatalogVerificationTests: XCTestCase {
    /// `testbed verify` on the catalog at small sizes (the tests' grid, both backends), in
    /// four shards of the catalog (query i in shard i % 4), one test each: a single test took
    /// about two minutes on one worker of `swift test --parallel` while the other sat idle.
    static let shardCount = 4

    static func shard(_ index: Int, of queries: [CatalogQuery]) -> [CatalogQuery] {
        queries.enumerated().filter { $0.offset % shardCount == index }.map(\.element)
    }

    func testCatalogShardsCoverEveryQueryOnce() throws {
        let queries = try QueryCatalog.load()
        let shards = (0..<Self.shardCount).map { Self.shard($0, of: queries) }
        XCTAssertEqual(shards.flatMap { $0.map(\.name) }.sorted(), queries.map(\.name).sorted())
        XCTAssertTrue(shards.allSatisfy { !$0.isEmpty })
    }

    func testCatalogAtSmallSizesPassesShard1() throws { try verifyShard(0) }
    func testCatalogAtSmallSizesPassesShard2() throws { try verifyShard(1) }
    func testCatalogAtSmallSizesPassesShard3() throws { try verifyShard(2) }
    func testCatalogAtSmallSizesPassesShard4() throws { try verifyShard(3) }

    private func verifyShard(_ index: Int) throws {
        let queries = Self.shard(index, of: try QueryCatalog.load())
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
        // 96 combinations of the seed's flags × 15 of the 13 later on/off flags, × 2 backends.
        XCTAssertEqual(report.engineRuns, report.cases * 96 * 15 * 2)
        XCTAssertEqual(progressCalls, report.cases)
        XCTAssertEqual(report.mismatches, 0, report.firstMismatches.first.map(String.init(describing:)) ?? "")
    }

    func testVerifyGridIsTheIssuesProduct() throws {
        let sets = try FlagGrid.verify().flagSets()
        // The seed's 3 on/off × 5 thresholds × 3 orderings × 3 copy limits, × the 13 later on/off
        // flags pairwise (all off, all on, each alone on, each alone off).
        XCTAssertEqual(sets.count, 8 * 5 * 3 * 3 * 28)
        XCTAssertEqual(Set(sets.map(\.canonical)).count, sets.count)
        // Every pair of values of two later heuristics meets every seed combination.
        let later = FlagGrid.verify().laterToggles.map(\.name)
        XCTAssertEqual(later, ["closure-seeding", "difference-to-select", "difference-to-select-always", "filter-aware-ordering", "join-conjunct-pushdown", "join-filter-pushdown", "late-filter-narrowing",
                               "late-subtree-copying", "provably-empty-first", "sampled-estimate-ordering", "select-activation-narrowing", "self-operand-folding", "set-operand-filter"])
        for a in later {
            for b in later where a < b {
                for (va, vb) in [(true, true), (true, false), (false, true), (false, false)] {
                    let n = sets.filter { $0[a] == .toggle(va) && $0[b] == .toggle(vb) }.count
                    XCTAssertGreaterThanOrEqual(n, 360, "\(a)=\(va), \(b)=\(vb)")
                }
            }
        }
        XCTAssertTrue(sets.contains { $0[JoinFilterThreshold.threshold] == Int.max })
        XCTAssertEqual(Set(sets.compactMap { $0[SubtreeCopying.copyLimit] }), [0, 1, 100])
    }
}
