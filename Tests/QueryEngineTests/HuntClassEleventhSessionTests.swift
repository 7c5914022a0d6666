import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, eleventh session, from hunt seed 26 cases 231 and 977: a closure seeded at the
/// start by a select's pinned end, then narrowed by a join's key filter on its start.
final class HuntClassEleventhSessionTests: HuntCaseTestCase {
    /// `links closure [e -> c] select (c == 0) join start`, `links` indexed on `e` and `c`,
    /// twenty edges into 0 and one edge out of 57. The select's `c == 0` reaches the closure
    /// first and `closure-seeding` starts a backwards search from 0. The one-row `start`
    /// completes next and pins `e` to 57, before `links` is read; the search then restarts
    /// forwards from 57, whose fetch is estimated smaller (1 edge against 20). Before, the
    /// closure refused every later demand and read the 20 edges into 0.
    func testASeededClosureRestartsFromANarrowerStartBeforeItsSourceIsRead() throws {
        let links = try MemoryTable(name: "links", columns: ["e", "c"],
                                    rows: (1...20).map { [.integer($0), .integer(0)] } + [[.integer(57), .integer(0)]],
                                    indexedAttributes: ["e", "c"])
        let start = Relation(source: try MemoryTable(name: "start", columns: ["e"], rows: [[.integer(57)]]))
        let query = try Relation(source: links).closure("e", "c").select("c" *== 0).join(start)
        XCTAssertEqual(try rowsRead(query, links, preset: "seed"), 21)
        XCTAssertEqual(try rowsRead(query, links, disable: ["select-pushdown"]), 1)
        XCTAssertEqual(try rowsRead(query, links), 1)  // 21 when the closure kept its first demand
    }
}
