import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, twelfth session (the lead's cases): hunt seed 47 case 1009 (`all-on` 204 rows,
/// `seed` 15), a copy along an edge of a source whose filter was already active, and seed 39
/// case 1498 with the hunt's default settings (5 rows against 0), a vetoed copy.
final class HuntClassTwelfthSessionTests: HuntCaseTestCase {
    /// Two outputs share `t` (indexed on `b`; `b` is 1-60 and 101-110): `(s minus s select
    /// (c == 1000)) select (c > 100)` with `s = t rename [b -> c]`, and `(t join e) select
    /// (b < 55)` with `e` empty. Both parents' filters reach `t` before it is read: `b > 100
    /// or b < 55`, 64 rows. `e` drains first and narrows the join's edge to `false`;
    /// `late-subtree-copying` gives the join its own copy of `t`, which reads nothing. The
    /// original has one parent left and now narrows to `b > 100` (10 rows); before, it kept
    /// the OR and read 64, where `seed` (no copy, the `false` narrowing the OR) reads 10.
    func testACopyAlongAnActiveSourcesEdgeNarrowsTheOriginalToItsRemainingParents() throws {
        let values = (1...60).map { Int64($0) } + (101...110).map { Int64($0) }
        let t = try MemoryTable(name: "t", columns: ["b", "d"], rows: values.map { [.integer($0), .integer($0)] },
                                indexedAttributes: ["b"])
        let e = Relation(source: try MemoryTable(name: "e", columns: ["b"], rows: []))
        let s = try Relation(source: t).rename(["b": "c"])
        let outputs = [
            try s.difference(s.select("c" *== 1000)).select("c" *> 100),
            try Relation(source: t).join(e).select("b" *< 55),
        ]
        XCTAssertEqual(try rowsRead(outputs, t, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(outputs, t, disable: ["late-subtree-copying"]), 10)
        XCTAssertEqual(try rowsRead(outputs, t), 10)  // 64 when the original kept the OR
    }

    /// `((shared union t) select (d == 131) join t) union shared`, `shared = t select (a == 16)`,
    /// `t` five rows indexed on `d`, no `a` of 16 and no `d` of 131. The seed's copy of
    /// `shared` for the inner union was vetoed (the output union above `shared` never gives
    /// it a filter), so the join's `t` waited for its key filter on the inner union, which
    /// waited on `t` itself through `shared`: `t` was read whole (5 rows). The copy breaks
    /// that wait: the inner side reads nothing through the index on `d`, the join gives its
    /// `t` `false`, and `shared`'s `a == 16` is provably empty. Hunt seed 39 case 1498.
    func testACopyThatBreaksAWaitOnItselfIsNotVetoed() throws {
        let t = try MemoryTable(name: "t", columns: ["a", "d"], rows: (1...5).map { [.integer($0), .integer($0)] },
                                indexedAttributes: ["d"])
        let shared = try Relation(source: t).select("a" *== 16)
        let query = try shared.union(Relation(source: t)).select("d" *== 131).join(Relation(source: t)).union(shared)
        XCTAssertEqual(try rowsRead([query], t, preset: "seed"), 5)
        XCTAssertEqual(try rowsRead([query], t, disable: ["late-subtree-copying"]), 0)
        XCTAssertEqual(try rowsRead([query], t), 0)  // 5 when late-subtree-copying vetoed the copy
    }
}
