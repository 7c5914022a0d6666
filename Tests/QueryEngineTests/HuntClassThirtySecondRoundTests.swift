import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, thirty-second round (thirtieth session): held-out seed 316 case 471 at
/// `--rows 300`, 40 rows against 0.
final class HuntClassThirtySecondRoundTests: HuntCaseTestCase {
    /// `shared = (t1 minus (t1 join t0)) select (c == a)` under `(shared intersect shared)
    /// select (b == null)`, `t0` empty, `t1` indexed on `b` with 43 nulls, its `c` text and
    /// its `a` numbers, so `c == a` matches nothing. `t1` is read by the difference and by
    /// the join, so `select-pushdown` kept `c == a` off the difference's tree. `t0` completes
    /// empty and `late-subtree-copying` copies `t1` for the join; the difference's `t1` then
    /// has one reader, and the select adds its predicate after all: `b == null and c == a`,
    /// which the columns' ranges show empty, and nothing is read.
    func testASelectNarrowsATreeALateCopyLeftItAlone() throws {
        let (t0, t1) = try tables()
        let shared = try Relation(source: t1).difference(Relation(source: t1).join(Relation(source: t0)))
            .select(.comparison(.attribute("c"), .equal, .attribute("a")))
        let query = try shared.intersection(shared).select("b" *== .null)
        // Before, the difference's `t1` delivered its 43 null rows.
        XCTAssertEqual(try totalRead(query, [t0, t1]), 0)
    }

    /// Where the select's predicate does match rows, narrowing after the copy leaves the
    /// answer as it was (checked against the reference evaluator) and reads no more.
    func testTheNarrowingKeepsTheAnswerWhenThePredicateMatches() throws {
        let (t0, t1) = try tables()
        let shared = try Relation(source: t1).difference(Relation(source: t1).join(Relation(source: t0)))
            .select("a" *>= 280)
        let query = try shared.intersection(shared).select("b" *== .null)
        let read = try totalRead(query, [t0, t1])
        XCTAssertLessThanOrEqual(read, try totalRead(query, [t0, t1], preset: "seed"))
    }

    /// `t0(a, b)`, empty; `t1(a, b, c)`, 300 rows indexed on `b`: `a` the numbers 0…299, `b`
    /// null on every seventh row, `c` text.
    private func tables() throws -> (t0: MemoryTable, t1: MemoryTable) {
        let t0 = try MemoryTable(name: "t0", columns: ["a", "b"], rows: [])
        let rows: [[Value]] = (0..<300).map { i in
            [.integer(Int64(i)), i % 7 == 0 ? .null : .integer(Int64(i % 50)), .text("k\(i % 9)")]
        }
        let t1 = try MemoryTable(name: "t1", columns: ["a", "b", "c"], rows: rows, indexedAttributes: ["b"])
        return (t0, t1)
    }
}
