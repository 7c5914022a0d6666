import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, eighth round: `late-subtree-copying`'s third case, hand-built. A shared source
/// is given a filter that fetches far less than the OR of what its other parents gave,
/// while one of those parents may still narrow (a join, intersection or difference above it
/// waits on an operand); the source is copied for the selective parent.
final class HuntClassEighthRoundTests: HuntCaseTestCase {
    /// Seed 17 case 583: `((t0 intersect t2 rename [a -> c]) minus t0) select (d > 16)`,
    /// `t2` empty. The select's filter reaches `things` from both parents at the start; when
    /// the empty side completes, `set-operand-filter`'s `false` narrows the intersection's
    /// edge only, and the OR with the difference's filter kept `things` read. Copied, the
    /// intersection's `things` reads nothing, the difference's left operand completes
    /// empty, and its `false` reaches the original.
    func testFalseNarrowingAnActiveSharedSourceIsCopied() throws {
        let table = try things()
        let nothing = Relation(source: try MemoryTable(name: "nothing", columns: ["id", "label"], rows: []))
        let shared = Relation(source: table)
        let query = try shared.intersection(nothing).difference(shared).select("id" *> 3)
        XCTAssertEqual(try rowsRead(query, table, preset: "seed"), 7)
        XCTAssertEqual(try rowsRead(query, table, disable: ["late-subtree-copying"]), 7)
        XCTAssertEqual(try rowsRead(query, table), 0)
    }

    /// Seed 17 case 1964: `t3 join t1 join t1 select (…) select (…)`, `t1` indexed. The
    /// selects give `t1` a broad range at the start; when the two-row side completes, the
    /// inner join's key filter (2 keys) is OR-ed with it and `t1` was read almost whole.
    /// Copied for the join, `t1` reads the 2 keys' rows; the inner join completes, and the
    /// outer join's key filter narrows the selects' `t1` to the same 2 keys.
    func testSelectiveLastParentGetsACopyWhileTheOthersMayNarrow() throws {
        let table = try things(indexed: true)
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["id"], rows: [[.integer(4)], [.integer(7)]]))
        let shared = Relation(source: table)
        let query = try probe.join(shared).join(shared.select("id" *>= 0).select("id" *< 100))
        XCTAssertEqual(try rowsRead(query, table, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(query, table, disable: ["late-subtree-copying"]), 10)
        XCTAssertEqual(try rowsRead(query, table), 4)
    }

    /// Seed 16 case 1799: `(t0 join t2 join t2 select (d > 9007199254740993)) select (22 > d)`.
    /// The outer select's filter reaches `t2` from both parents at the start (the inner
    /// select activates before it pushes its own predicate); the join's key filter then
    /// narrows its edge to a key or two, lost in the OR. Copied, the join's `t2` reads those
    /// rows (2), and the outer join's key filter narrows the original to the same keys (2:
    /// here the keys match, where in the case nothing did and the original read none).
    func testSelectiveNarrowingOfAnActiveSharedSourceIsCopied() throws {
        let table = try things(indexed: true)
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["id"], rows: [[.integer(4)], [.integer(7)]]))
        let shared = Relation(source: table)
        let query = try probe.join(shared).join(shared.select("id" *> 100)).select("id" *< 9)
        XCTAssertEqual(try rowsRead(query, table, preset: "seed"), 8)
        XCTAssertEqual(try rowsRead(query, table, disable: ["late-subtree-copying", "select-activation-narrowing"]), 8)
        // Since the fiftieth session `select-activation-narrowing` gives the select's edge
        // `id > 100 and id < 9`, which `things`' column ranges rule out, so without the copy
        // veto only the join's two keys are read.
        XCTAssertEqual(try rowsRead(query, table, disable: ["late-subtree-copying"]), 2)
        // Since the thirtieth session the copy also leaves the original to the select alone,
        // whose `id > 100` then narrows it to nothing (`id < 9` and `id > 100`): the
        // original reads none, and the outer join's `false` reaches the copy before it
        // reads (4 rows before).
        XCTAssertEqual(try rowsRead(query, table), 0)
    }

    /// Seed 18 case 74: `… select ((e > null and e <= 42) and e < 73 and (e <= 61 and e > 33))
    /// join t3`, the 300-row side unindexed on `e`. `filter-aware-ordering` guessed the
    /// select's side at a third per bound, 1/243 of the table (1.2 rows), below the 2-row
    /// side, and deferred that; the table was read under the range. An AND now counts one
    /// upper and one lower bound per attribute (1/9 here), the 2-row side is drained first,
    /// and its keys match nothing in the range.
    func testBoundsOnOneAttributeAreARangeNotAProduct() throws {
        let big = try MemoryTable(name: "big", columns: ["a", "e"], rows: (1...60).map { [.integer($0), .integer($0)] })
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["e"], rows: [[.integer(3)], [.integer(45)]],
                                                     indexedAttributes: ["e"]))
        let range = Predicate.and([
            .and(["e" *> .null, "e" *<= 42]), "e" *< 73, .and(["e" *<= 61, "e" *> 33]),
        ])
        let query = try Relation(source: big).select(range).join(probe)
        XCTAssertEqual(FilterAwareOrdering.guessedSelectivity(range), 1.0 / 9, accuracy: 1e-12)  // was 1/243
        // `seed` drains `probe` first too, but without `late-filter-narrowing` its keys
        // cannot narrow the select's edge.
        XCTAssertEqual(try rowsRead(query, big, preset: "seed"), 9)
        XCTAssertEqual(try rowsRead(query, big, disable: ["filter-aware-ordering"]), 0)
        XCTAssertEqual(try rowsRead(query, big), 0)  // 9 when the five bounds multiplied
    }

    /// Seed 17 case 528: `t2 join t1 rename [a -> f, e -> b] select (not (f != 64.5))`, `t1`
    /// indexed on `a`. The index cannot read the NOT, so `t1` is estimated whole and its
    /// column range holds 64.5: the 5-row `t2` was drained first. With the NOT pushed in
    /// (`a == 64.5`) the index finds nothing; `provably-empty-first` drains `t1` first, and
    /// the join's `false` keeps `t2` unread.
    func testANegatedComparisonTheIndexCanAnswerOnceTheNotIsPushedIn() throws {
        let indexed = try MemoryTable(name: "indexed", columns: ["id"], rows: (1...100).map { [.integer($0)] },
                                      indexedAttributes: ["id"])
        let probe = try MemoryTable(name: "probe", columns: ["id"], rows: (1...5).map { [.integer($0 * 7)] })
        let query = try Relation(source: probe).join(Relation(source: indexed).select(.not("id" *!= 50.5)))
        XCTAssertEqual(try rowsRead(query, probe, preset: "seed"), 5)
        XCTAssertEqual(try rowsRead(query, probe, disable: ["provably-empty-first", "sampled-estimate-ordering", "filter-aware-ordering"]), 5)
        XCTAssertEqual(try rowsRead(query, probe), 0)
    }

    /// Seed 18 case 1437: `(t0 join shared minus shared) select (b <= 12)`, `shared = t3 join
    /// t2`, `t3` unindexed (150 rows), `t2` selected to a row. The seventh round's rule kept
    /// `filter-aware-ordering` from deferring `t0` (5 rows) behind `shared` because `shared`
    /// must drain `t3`, larger than `t0`; but `t3`'s only parent is a join whose other side
    /// (a row) keys it first, so the scan delivers only matches. Now `t0` is deferred,
    /// `shared` completes empty, and the join's `false` keeps `t0` unread.
    func testALargerSourceKeyedByASmallSiblingDoesNotBlockADeferral() throws {
        let probe = try MemoryTable(name: "probe", columns: ["id"], rows: (1...5).map { [.integer($0)] })
        // `big` lacks k = 15, inside its range, so no column range rules the key out.
        let big = try MemoryTable(name: "big", columns: ["k", "id"],
                                  rows: (1...31).filter { $0 != 15 }.map { [.integer($0), .integer($0 % 5 + 1)] })
        let keyed = try MemoryTable(name: "keyed", columns: ["k", "tag"],
                                    rows: (13...17).map { [.integer($0), .text($0 == 15 ? "x" : "y")] },
                                    indexedAttributes: ["tag"])
        let inner = try Relation(source: big).join(Relation(source: keyed).select("tag" *== "x"))
        let query = try Relation(source: probe).join(inner)
        XCTAssertEqual(try rowsRead(query, probe, preset: "seed"), 5)
        XCTAssertEqual(try rowsRead(query, probe, disable: ["filter-aware-ordering", "sampled-estimate-ordering"]), 5)
        XCTAssertEqual(try rowsRead(query, probe), 0)
    }
}
