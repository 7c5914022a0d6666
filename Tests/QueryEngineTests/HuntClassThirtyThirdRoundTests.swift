import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, thirty-third round (thirty-first session): held-out seed 326 case 1842 at
/// `--rows 300`, 20 rows against 0.
final class HuntClassThirtyThirdRoundTests: HuntCaseTestCase {
    /// `shared_2 = (t1 rename [a -> b]) join itself`, `shared_3 = shared_2 union shared_2
    /// select (d != 63)`, under `(shared_3 join shared_3 select (b > "m")) select (b ==
    /// null)`; `t1` indexed on `a` with 20 nulls. `b > "m"` contradicts `b == null`, so the
    /// join's right side is empty and nothing need be read. The union is read by the join
    /// and by the select, and inside it `shared_2` by the union and by the select under it.
    /// `late-subtree-copying` vetoed the seed's copy of the union for the join (both readers
    /// give `b == null`), because its select rule asked only for a tree nothing else reads
    /// below the copied node, and, for `shared_2`, only the select that is the other reader
    /// (whose `d != 63` narrows nothing), not the one above the union. Uncopied, `b > "m"`
    /// never reached `t1` and its null rows were read. Now a subtree shared only inside
    /// itself counts (`readsAloneBelow`) and the select above is asked too.
    func testASelectAboveAUnionSharedInsideItselfLetsTheCopiesThrough() throws {
        let t1 = try table()
        let shared = try Relation(source: t1).rename(["a": "b"])
        let shared2 = try shared.join(shared)
        let shared3 = try shared2.union(shared2.select("d" *!= 63))
        let query = try shared3.join(shared3.select("b" *> .text("m"))).select("b" *== .null)
        // Before, the 20 null rows.
        XCTAssertEqual(try totalRead(query, [t1]), 0)
        XCTAssertEqual(try totalRead(query, [t1], preset: "seed"), 0)
    }

    /// Where the select above matches rows, the copies keep the answer (checked against the
    /// reference evaluator) and read no more than the seed's.
    func testTheCopiesKeepTheAnswerWhenTheSelectMatches() throws {
        let t1 = try table()
        let shared = try Relation(source: t1).rename(["a": "b"])
        let shared2 = try shared.join(shared)
        let shared3 = try shared2.union(shared2.select("d" *!= 63))
        let query = try shared3.join(shared3.select("b" *> 40)).select("d" *< 30)
        XCTAssertLessThanOrEqual(try totalRead(query, [t1]), try totalRead(query, [t1], preset: "seed"))
    }

    /// `t1(a, d)`, 147 rows indexed on `a`: `a` null on 20 of them, numbers otherwise.
    private func table() throws -> MemoryTable {
        let rows: [[Value]] = (0..<147).map { (i: Int) -> [Value] in
            let isNull = i % 7 == 1 && i < 140
            let a: Value = isNull ? .null : .integer(Int64(i % 80))
            return [a, .integer(Int64(i % 90))]
        }
        return try MemoryTable(name: "t1", columns: ["a", "d"], rows: rows, indexedAttributes: ["a"])
    }
}
