import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, thirty-fourth round (thirty-second session): held-out seed 326 case 1884 at
/// `--rows 300`, 21 rows against 11, after the thirty-third round's change.
final class HuntClassThirtyFourthRoundTests: HuntCaseTestCase {
    /// `shared = t2 union t2 select (c >= 0 or a > 100)` under `shared union shared select
    /// (null >= a and c >= 28)`, projected and narrowed by `a == 1`, which 10 rows of `t2`
    /// match, all of them the select's too. The outer union's copy of `shared` (its other
    /// reader's select contradicts `a == 1`) holds `t2` under both its union and its select.
    /// The select gave its predicate first; the union's `a == 1` was then copied, and once
    /// the select was given `a == 1` too, its narrowing was copied as lost in the OR. Either
    /// copy read the same 10 rows again. Now the last parent's copy is vetoed when the others
    /// gave it nothing narrower to use (`othersGaveItNarrowedByNothing`), and a narrowing is
    /// not lost when another parent gave as much (`anotherGaveAsMuch`).
    func testACopyThatReadsTheSameRowsAgainIsVetoed() throws {
        let (t1, t2) = try tables()
        let query = try shape(t1, t2, select: "c" *>= 0 *|| "a" *> 100)
        // Before, 21: `t1`'s row and `t2`'s 10 rows twice.
        XCTAssertEqual(try totalRead(query, [t1, t2]), 11)
        XCTAssertEqual(try totalRead(query, [t1, t2], disable: ["late-subtree-copying"]), 11)
    }

    /// Where the inner select narrows, the reads stay as they were (and the answer right).
    func testASelectThatNarrowsStillReadsNoMoreThanTheSeed() throws {
        let (t1, t2) = try tables()
        let query = try shape(t1, t2, select: "c" *== 7)
        XCTAssertEqual(try totalRead(query, [t1, t2]), 12)
        XCTAssertLessThanOrEqual(try totalRead(query, [t1, t2]), try totalRead(query, [t1, t2], preset: "seed"))
    }

    private func shape(_ t1: MemoryTable, _ t2: MemoryTable, select predicate: Relational.Predicate) throws -> Relation {
        let source = Relation(source: t2)
        let shared = try source.union(source.select(predicate))
        let contradicting = Relational.Predicate.comparison(.value(.null), .greaterOrEqual, .attribute("a")) *&& "c" *>= 28
        let shared2 = try shared.union(shared.select(contradicting)).project(["a"]).select("a" *== 1)
        return try Relation(source: t1).union(shared2).join(shared2)
    }

    /// `t1(a)`, 78 rows `0…77`; `t2(a, c)`, 279 rows `(i % 28, i % 50)` indexed on both.
    private func tables() throws -> (MemoryTable, MemoryTable) {
        let t1 = try MemoryTable(name: "t1", columns: ["a"], rows: (0..<78).map { [.integer(Int64($0))] }, indexedAttributes: ["a"])
        let t2 = try MemoryTable(name: "t2", columns: ["a", "c"],
                                 rows: (0..<279).map { [.integer(Int64($0 % 28)), .integer(Int64($0 % 50))] },
                                 indexedAttributes: ["a", "c"])
        return (t1, t2)
    }
}
