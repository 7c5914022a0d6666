import Relational
import XCTest
@testable import QueryEngine

/// Issue 15, fiftieth session: held-out 735/147 at `--rows 300` (30.0, `all-on` and `seed` 30
/// rows against `all-on` without `self-operand-folding`'s 0), rebuilt over other data. The
/// hunted repro is kept for `HuntReproTests` (`hunt-s735-case147`).
final class HuntClassFiftyFirstRoundTests: HuntCaseTestCase {
    /// `shared = t join (t select (e > d) select (e <= 69) rename [a -> b] select (b < e))`,
    /// `shared minus shared select (…)`: every `e` of `t` is text, so `e <= 69` holds for no
    /// row (numbers order before text) and `t`'s column ranges say so. `select-folding`
    /// merges the two selects into one over the shared `t`, whose edge the select's parental
    /// filter `a < e` reached alone, and `t` delivered every row. Narrowed with the select's
    /// predicate (`select-activation-narrowing`'s `isRuledOut`), the edge wants nothing of `t`:
    /// subtree copying gives the select a copy that delivers nothing, and the join then gives
    /// `t` `false`.
    func testASelectItsSourceRulesOutNarrowsItsSharedEdge() throws {
        let t = try MemoryTable(name: "t", columns: ["a", "d", "e"], rows: (0..<40).map { (i: Int) -> [Value] in
            [.integer(Int64(i * 3)), .text("k\(i % 7)"), .text(i % 2 == 0 ? "m\(i)" : "B\(i)")]
        }, indexedAttributes: ["d"])
        let a = Attribute("a"), d = Attribute("d"), e = Attribute("e"), b = Attribute("b")
        func attributes(_ left: Attribute, _ op: ComparisonOperator, _ right: Attribute) -> Relational.Predicate {
            .comparison(.attribute(left), op, .attribute(right))
        }
        let chain = try Relation(source: t).select(attributes(e, .greater, d)).select(e *<= 69)
            .rename(["a": "b"]).select(attributes(b, .less, e))
        let shared = try Relation(source: t).join(chain)
        let query = try shared.difference(
            shared.select(attributes(d, .equal, b) *&& e *<= .real(21) *&& e *> 71 *&& attributes(a, .greaterOrEqual, d) *&& d *>= 1))
        XCTAssertEqual(try totalRead(query, [t]), 0, "40 before")
        XCTAssertEqual(try totalRead(query, [t], disable: ["select-activation-narrowing"]), 40)
        XCTAssertEqual(try totalRead(query, [t], disable: ["self-operand-folding"]), 0)
        XCTAssertEqual(try totalRead(query, [t], preset: "seed"), 40)
    }
}
