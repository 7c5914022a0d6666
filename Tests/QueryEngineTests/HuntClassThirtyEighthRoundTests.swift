import Relational
import XCTest
@testable import QueryEngine

/// Issue 15, thirty-fifth session: held-out seed 353 case 1079 at `--rows 300`.
final class HuntClassThirtyEighthRoundTests: HuntCaseTestCase {
    /// `(t1 join [b = c] t2) project [b, e] closure [b -> e] select (e == 60) select (b == e)
    /// intersect t0 rename [c -> b]`: the intersection's pair let `t0` (28 rows) produce
    /// first for the closure's side, but a closure over a join passes no filter to its
    /// operand, so `t0`'s keys narrowed nothing below it. Drained first, the closure's side
    /// (`t1`'s one row keys two of `t2`'s 268) completes empty and gives `t0` `false`.
    func testAClosureThatPassesNoFilterDoesNotWaitForOne() throws {
        let t1 = try MemoryTable(name: "t1", columns: ["b"], rows: [[.integer(18)]], indexedAttributes: ["b"])
        let t2 = try MemoryTable(name: "t2", columns: ["c", "e"],
                                 rows: (0..<268).map { [.integer(Int64($0 % 134)), .integer(Int64($0))] }, indexedAttributes: [])
        let t0 = try MemoryTable(name: "t0", columns: ["c", "e"],
                                 rows: (0..<28).map { [.integer(Int64($0)), .integer(Int64($0 + 1000))] }, indexedAttributes: [])
        let edges = try Relation(source: t1).equijoin(Relation(source: t2), matching: [JoinPair("b", "c")])
            .project(["b", "e"]).closure("b", "e")
        let query = try edges.select("e" *== 60).select(.comparison(.attribute("b"), .equal, .attribute("e")))
            .intersection(Relation(source: t0).rename(["c": "b"]))
        // Before, 31: `t0` whole, then `t1` and `t2`'s two rows (checked on the CLI with the
        // session's first binary through a hand-made repro of these tables; `seed` reads 31).
        XCTAssertEqual(try totalRead(query, [t0, t1, t2]), 3)
        XCTAssertLessThanOrEqual(try totalRead(query, [t0, t1, t2]), try totalRead(query, [t0, t1, t2], preset: "seed"))
    }
}
