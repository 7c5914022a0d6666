import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, twelfth round: the select class. A select's range, pushed by `select-pushdown`
/// at the start, reaches a shared node along one edge; a later key filter (an IN-set of a
/// complete operand, or `false`) narrows another edge and is lost in the runner's OR. Rows
/// read are of the table the fix keeps unread. Each test fails without its rule.
final class HuntClassTwelfthRoundTests: HuntCaseTestCase {
    /// Seed 33 case 920: `((t0 rename [e -> a] minus shared) select (…) intersect shared)
    /// select (a >= 38)`, `shared = t1 project [a]`, `t0` an output too. The selects' range
    /// reaches `shared` from the difference and the intersection at the start; when `t0`'s
    /// one row completes the difference's left operand, `set-operand-filter`'s IN-set narrows
    /// the difference's edge only and is lost in the OR with the intersection's range, so
    /// `t1` was read under the range. `late-subtree-copying` case 4 copies `shared` (a
    /// project, which case 3 does not follow) for the keys: the copy reads one row, the
    /// difference completes empty, and the intersection's `false` reaches the original.
    func testAKeyFilterLostInTheOrAboveASharedProjectIsCopied() throws {
        let big = try MemoryTable(name: "big", columns: ["a", "b"],
                                  rows: (1...12).map { [.integer($0 * 10), .integer($0)] },
                                  indexedAttributes: ["a"])
        let tiny = Relation(source: try MemoryTable(name: "tiny", columns: ["e"], rows: [[.integer(40)]]))
        let shared = try Relation(source: big).project(["a"])
        let left = try tiny.rename(["e": "a"]).difference(shared).select(.not("a" *> 1_000))
        let query = try left.intersection(shared).select("a" *>= 38)
        XCTAssertEqual(try rowsRead([query, tiny], big, preset: "seed"), 9)
        XCTAssertEqual(try rowsRead([query, tiny], big, disable: ["late-subtree-copying"]), 9)
        XCTAssertEqual(try rowsRead([query, tiny], big), 1)
    }

    /// Seed 26 case 73: `(t2 join ((t2 join t2) select (…) select (d <= 39 …))) project [d]
    /// join [d = a] t0`, `t0` empty. The outer join's `false` reached `t2` last, while the
    /// selects' range held the self-join's two edges; narrowed to `false` down those edges,
    /// each was copied away by case 3 (the outer join "may still narrow"), and the original,
    /// active, kept its OR, the range: 49 rows read, 0 without the copies. Now an edge
    /// already given `false` narrows no further, and a node whose other parents all gave
    /// `false` is not copied: the narrowing makes its filter `false`.
    func testNoCopyWhenTheOtherParentsAlreadyGaveFalse() throws {
        let big = try MemoryTable(name: "big", columns: ["d"], rows: (1...12).map { [.integer($0)] })
        let none = Relation(source: try MemoryTable(name: "none", columns: ["a"], rows: []))
        let t2 = Relation(source: big)
        let inner = try t2.join(t2).select("d" *> 0).select("d" *<= 9)
        let query = try t2.join(inner).project(["d"]).equijoin(none, matching: [JoinPair("d", "a")])
        XCTAssertEqual(try rowsRead([query], big, disable: ["late-subtree-copying"]), 0)
        XCTAssertEqual(try rowsRead([query], big), 0)  // 9 before
    }

    /// Seed 33 case 1778 (a cost of the first cut of case 4): `shared_4 join shared_4 join
    /// shared_2`, `shared_4 = (shared_3 join shared_3 join t2) select (c == 64)`, `shared_3 =
    /// shared union shared_2 union shared`, `shared = t2 select (c != d)`. The keys narrowing
    /// the self-join's one edge reach its other edge in the same wave; counted as a parent
    /// whose range keeps the keys lost, they had the union and the shared select copied level
    /// by level, each copy reading the same rows again (6 rows → 15). Edges of the same
    /// parent no longer count.
    func testAnotherEdgeOfTheSameParentDoesNotLoseTheKeys() throws {
        let big = try MemoryTable(name: "big", columns: ["b", "c", "d"],
                                  rows: (1...12).map { [.integer($0), .integer($0 % 4 == 0 ? 64 : $0), .integer($0 + 100)] },
                                  indexedAttributes: ["c"])
        let other = try MemoryTable(name: "other", columns: ["b", "c", "e"],
                                    rows: (1...12).map { [.integer($0 + 50), .integer($0), .integer($0)] },
                                    indexedAttributes: ["b", "e"])
        let shared = try Relation(source: big).select(.comparison(.attribute("c"), .notEqual, .attribute("d")))
        let shared2 = try Relation(source: other).rename(["e": "d"])
        let shared3 = try shared.union(shared2).union(shared)
        let shared4 = try shared3.join(shared3).join(Relation(source: big)).select("c" *== 64)
        let query = try shared4.join(shared4).join(shared2)
        XCTAssertEqual(try rowsRead([query], big, disable: ["late-subtree-copying", "self-operand-folding"]), 15)
        // 15 when its own other edge counted; 6 before the sixteenth session's third veto
        // case (`late-subtree-copying`), which keeps the shared select from being copied for
        // one parent while the others give it the same filter in the same wave.
        XCTAssertEqual(try rowsRead([query], big), 3)
    }
}
