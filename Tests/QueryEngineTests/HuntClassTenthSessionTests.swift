import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, tenth session, from a hunt seed no helper tuned on (seed 30 case 646): a shared
/// rename over a source, under two intersections, with the selects' range on both edges.
final class HuntClassTenthSessionTests: HuntCaseTestCase {
    /// `((tiny ∩ shared) ∩ shared) select (a <= 51) − (tiny ∩ shared)`, selected by `e >= 1`,
    /// with `shared = big rename [c -> d, d -> e]`, `big` indexed on `d`. The selects' range
    /// reaches `shared` from both intersections at the start; when `tiny` completes, its
    /// IN-set narrows one edge only, and `shared`'s filter, the OR of its edges', stays the
    /// range, so all of `big` was read. `late-subtree-copying` case 3 asked only about a shared
    /// source; it now follows the rename down to `big`, copies `shared` for the narrowed
    /// edge, the copy reads nothing, the inner intersection completes empty, and the outer
    /// one's `false` reaches the original.
    func testANarrowingLostInTheOrAboveARenamedSourceIsCopied() throws {
        let big = try MemoryTable(name: "big", columns: ["a", "c", "d"],
                                  rows: (1...12).map { [.integer($0), .integer($0), .integer($0)] },
                                  indexedAttributes: ["d"])
        let tiny = Relation(source: try MemoryTable(name: "tiny", columns: ["a", "d", "e"],
                                                    rows: [[.integer(7), .integer(12), .integer(22)]]))
        let shared = try Relation(source: big).rename(["c": "d", "d": "e"])
        let inner = try tiny.intersection(shared)
        let query = try inner.intersection(shared).select("a" *<= 51).difference(inner).select("e" *>= 1)
        XCTAssertEqual(try rowsRead(query, big, preset: "seed"), 12)
        XCTAssertEqual(try rowsRead(query, big, disable: ["late-subtree-copying"]), 12)
        XCTAssertEqual(try rowsRead(query, big), 0)  // 12 when only a shared source was asked
    }
}
