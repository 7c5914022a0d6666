import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, seventh round: the class of seed 17 case 231, hand-built.
final class HuntClassSeventhRoundTests: HuntCaseTestCase {
    /// Seed 17 case 231: `probe join (keyed select (e != 0) join big) join big`, `big`
    /// unindexed and under both the inner join and the outer one. The inner join's pair
    /// (`filter-aware-ordering`) took `keyed join big` for the smaller side (as small as
    /// `keyed`, whose select's 9/10 guess puts it below the 5-row `probe`) and
    /// deferred `probe`; but that side completes only by draining `big`, which the outer
    /// join keeps unfiltered until the inner one completes, so `big` was read whole. A pair
    /// no longer defers behind a producing side that must drain a source larger than the
    /// waiting side: `probe` first, its keys find nothing in `keyed`, and `big` gets `false`.
    func testNoDeferralBehindASideThatMustDrainALargerSource() throws {
        let probe = try MemoryTable(name: "probe", columns: ["e"], rows: (100...104).map { [.integer($0)] })
        let keyed = try MemoryTable(name: "keyed", columns: ["e"], rows: (1...5).map { [.integer($0)] },
                                    indexedAttributes: ["e"])
        let big = try MemoryTable(name: "big", columns: ["a", "e"],
                                  rows: (1...30).map { [.integer($0), .integer($0 % 5 + 1)] })
        let shared = Relation(source: big)
        let query = try Relation(source: probe).join(Relation(source: keyed).select("e" *!= 0).join(shared)).join(shared)
        func read(_ preset: String, _ disable: [String] = []) throws -> Int {
            for t in [probe, keyed, big] { t.resetStatistics() }
            let run = try QueryEngine(flags: try HeuristicCatalog.standard.flagSet(preset: preset, disable: disable)).run([query])
            let read = [probe, keyed, big].reduce(0) { $0 + $1.rowsDelivered }
            XCTAssertEqual(Set(run.results[0]), Set(try ReferenceEvaluator.evaluate(query)), "\(preset) -\(disable)")
            return read
        }
        XCTAssertEqual(try read("seed"), 40)
        XCTAssertEqual(try read("all-on", ["filter-aware-ordering"]), 5)
        XCTAssertEqual(try read("all-on"), 5)  // 35 without the rule: `keyed`, then `big` whole
    }
}
