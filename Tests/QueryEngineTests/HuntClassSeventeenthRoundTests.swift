import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, seventeenth round (fourteenth session): the one case over 4× on the held-out
/// hunt seeds 68–71. `late-subtree-copying` vetoes a copy for one edge of a self-join (the
/// other edge passes the same filter down, so the shared child is read once) even when the
/// copy breaks a wait: an unindexed source under the shared child also waits on a parent
/// that itself waits on the self-join, and no later copy reaches it. (With any source
/// counted, `HuntClassTwelfthRoundTests.testAnotherEdgeOfTheSameParentDoesNotLoseTheKeys`
/// reads 12 rows instead of 6: there an indexed source's wait is broken by a copy below.)
final class HuntClassSeventeenthRoundTests: HuntCaseTestCase {
    /// Seed 68 case 1927: `shared = t2 join [e = b] t1`, `shared_2 = (shared join shared)
    /// select (d == 0.5)`, `shared_3 = ((shared_2 select (b < 27) union shared_2) join t2)
    /// project [b, c] closure [c -> b]`, outputs `shared_3 join t1` and `shared_3`. `t2` (151
    /// rows, indexed) has one row with `d == 0.5`, whose `e` (21) no row of `t1` (19 rows,
    /// unindexed) holds. The veto kept `shared` uncopied: `t2`'s row keyed `t1` with
    /// `b == 21`, but `t1` also waited on the output join, which waited on the closure, which
    /// waited on `t1`; the runner broke the wait by reading `t1` whole (20 rows). Copied,
    /// the copy's `t1` reads nothing, the copy completes empty, and the self-join gives the
    /// original `false` (1 row).
    func testASelfJoinCopyThatBreaksAWaitIsNotVetoed() throws {
        var rows: [[Value]] = (0..<150).map { [.integer($0), .integer(1_000 + $0), .integer($0 % 40)] }
        rows.append([.null, .real(0.5), .integer(21)])
        let t2 = try MemoryTable(name: "t2", columns: ["c", "d", "e"], rows: rows, indexedAttributes: ["c", "d", "e"])
        let t1 = try MemoryTable(name: "t1", columns: ["b"],
                                 rows: [1, 20, 0, 3, 30, 24, 4, 63, 62, 57, 55, 34, 5, 6, 7, 8, 9, 10, 11].map { [.integer($0)] })
        let shared = try Relation(source: t2).equijoin(Relation(source: t1), matching: [JoinPair("e", "b")])
        let shared2 = try shared.join(shared).select("d" *== .real(0.5))
        let shared3 = try shared2.select("b" *< .real(27)).union(shared2).join(Relation(source: t2))
            .project(["b", "c"]).closure("c", "b")
        let query = try shared3.join(Relation(source: t1))
        let tables = [t1, t2]
        XCTAssertEqual(try totalRead(query, tables, alsoOutput: [shared3]), 1)
        XCTAssertEqual(try totalRead(query, tables, disable: ["late-subtree-copying", "self-operand-folding"], alsoOutput: [shared3]), 1)
        XCTAssertEqual(try totalRead(query, tables, preset: "seed", alsoOutput: [shared3]), 21)
    }
}
