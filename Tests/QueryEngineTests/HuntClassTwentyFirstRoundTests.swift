import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, twenty-first round (eighteenth session): the two cases over 4× left open by the
/// seventeenth session (80/1864 on the re-hunted seeds, 113/1866 on held-out 112–115) and
/// the one found on held-out seeds 116–123 that was not already fixed by them (116/1254).
final class HuntClassTwentyFirstRoundTests: HuntCaseTestCase {
    /// Seed 113 case 1866: `(t2 select (b == -1.5) closure [b -> d] select (b == 18) union t0
    /// rename [d -> b, e -> d]) join [d = d, b = e] t0`, `t2` (146 rows) indexed on `d`.
    /// `closure-seeding` fetches the closure's operand on demand, through `t2`'s index on `d`,
    /// for the keys the closure's filter pins; those fetches ignored `t2`'s own active filter
    /// (the select's predicate, pushed down by `select-pushdown`), so the rows were counted
    /// before the select dropped them (14 rows against 2). Each fetch now ANDs the source's
    /// own filter. Two smaller forms of the class: `d == null` pins the 12 rows with a null
    /// `d`, none with `b == -1.5`; and a join's keys on `d` with a range below.
    func testAnOnDemandFetchKeepsTheSourcesOwnFilter() throws {
        let t2Rows: [[Value]] = (0..<146).map { i in [.integer(i % 40 - 1), i < 12 ? .null : .integer(i)] }
        let t2 = try MemoryTable(name: "t2", columns: ["b", "d"], rows: t2Rows, indexedAttributes: ["d"])
        let t0 = try MemoryTable(name: "t0", columns: ["d", "e"], rows: [[.null, .integer(4)], [.integer(48), .integer(53)]],
                                 indexedAttributes: ["d"])
        let pinned = try Relation(source: t2).select("b" *== .real(-1.5)).closure("b", "d").select("d" *== .null)
        XCTAssertEqual(try totalRead(pinned, [t2]), 0)
        XCTAssertEqual(try totalRead(pinned, [t2], preset: "seed"), 0)
        let keyed = try Relation(source: t2).select("b" *> 30).closure("b", "d")
            .equijoin(Relation(source: t0), matching: [JoinPair("d", "d")])
        XCTAssertEqual(try totalRead(keyed, [t0, t2]), 2)
        XCTAssertEqual(try totalRead(keyed, [t0, t2], disable: ["closure-seeding"]), 26)
        XCTAssertEqual(try totalRead(keyed, [t0, t2], preset: "seed"), 26)
    }
}
