import XCTest
import QueryEngine
import Relational
@testable import Workloads

/// On the seed's query `all-on` asks the sources no more than `seed` does: the same rows,
/// in the same initiator order, and no more estimates. `provably-empty-first` used to check
/// a pick's lone candidate too, asking an estimate no other heuristic needed (a run of this
/// query then asked 4 estimates against `seed`'s 3), and checked every candidate twice a pick.
/// Counters only (deterministic).
final class AllOnCostTests: XCTestCase {
    func testAllOnAsksNoMoreOfTheSourcesThanSeedOnTheSeedQuery() throws {
        let query = try QueryCatalog.find("selected-document-parent", directory: catalogDirectory)
        let loaded = try LoadedDataset.generate(
            try XCTUnwrap(query.shape), rows: 2_000, seed: 42, parameters: ShapeParameters(), backend: .memory)
        func counters(_ preset: String) throws -> RunCounters {
            try loaded.run(query, engine: QueryEngine(flags: HeuristicCatalog.standard.preset(preset))).1.counters
        }
        let seed = try counters("seed"), allOn = try counters("all-on")
        XCTAssertEqual(allOn.sourceRowsRead, seed.sourceRowsRead)
        XCTAssertEqual(allOn.initiatorOrder, seed.initiatorOrder)
        XCTAssertLessThanOrEqual(allOn.estimatesAsked, seed.estimatesAsked)
        XCTAssertEqual(seed.estimatesAsked, 3)
    }
}
