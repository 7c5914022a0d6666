import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, eleventh round: `filter-aware-ordering`'s pairs, hand-built. Each case is one
/// where the best order was reachable only by a forced order or `no-initiator-ordering`.
/// Rows read are of the table the fix keeps unread.
final class HuntClassEleventhRoundTests: HuntCaseTestCase {
    /// Seed 21 case 1503: `t1 join t0 join t2`, `t1 join t0` a product. The one-row `t0`
    /// was drained first: its row keys nothing (a product shares no attribute), and `t1`
    /// was read whole. Deferred with `t1`, the two-row `probe` keys `tiny` (indexed) to
    /// nothing, and the product gives `things` `false`.
    func testARowThatKeysNothingWaitsForTheKeysThatCanEmptyIt() throws {
        let table = try things()
        let tiny = Relation(source: try MemoryTable(name: "tiny", columns: ["k"], rows: [[.integer(1)]], indexedAttributes: ["k"]))
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["k"], rows: [[.integer(5)], [.integer(6)]]))
        let query = try Relation(source: table).join(tiny).join(probe)
        XCTAssertEqual(try rowsRead(query, table, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(query, table, disable: ["filter-aware-ordering"]), 0, "join-conjunct-pushdown's partBound recovers it")
        XCTAssertEqual(try rowsRead(query, table, disable: ["filter-aware-ordering", "join-conjunct-pushdown"]), 10)
        XCTAssertEqual(try rowsRead(query, table), 0)
    }

    /// Seed 25 case 1883: `t0 select (a == 40 or (a < null and true)) join t1`. Nothing is
    /// below null, so `a < null` holds for no row; guessed at a third, the select's side
    /// looked larger than the 3-row side, which was drained first.
    func testAComparisonBelowNullIsGuessedEmpty() throws {
        XCTAssertEqual(FilterAwareOrdering.guessedSelectivity("id" *< .null), 0)
        XCTAssertEqual(FilterAwareOrdering.guessedSelectivity("id" *>= .null), 1)
        let probeTable = try MemoryTable(name: "probe", columns: ["id"], rows: [[.integer(2)], [.integer(4)], [.integer(9)]])
        // 5.5 lies inside the column's range, so no range rules the select out.
        let query = try Relation(source: try things()).select(.or(["id" *== 5.5, "id" *< .null])).join(Relation(source: probeTable))
        XCTAssertEqual(try rowsRead(query, probeTable, preset: "seed"), 3)
        XCTAssertEqual(try rowsRead(query, probeTable, disable: ["filter-aware-ordering", "sampled-estimate-ordering"]), 3)
        XCTAssertEqual(try rowsRead(query, probeTable), 0)
    }

    /// Seed 21 case 546: `(t0 join [d = e] t1) select (…)`. The select's conjuncts reach
    /// both of the join's edges at the start; a filter already on the waiting edge no longer
    /// stops the pair, since the join filter narrows it.
    func testAFilterAlreadyOnTheWaitingEdgeDoesNotStopTheDeferral() throws {
        let table = try things()
        let left = try MemoryTable(name: "left", columns: ["id", "x"],
                                   rows: (1...30).map { [.integer($0 == 2 ? 99 : $0 + 100), .integer($0)] })
        let query = try Relation(source: left).join(Relation(source: table))
            .select(.and(["x" *< 3, "x" *> 1, "label" *!= "zz"]))
        XCTAssertEqual(try rowsRead(query, table, preset: "seed"), 10)
        // `left`'s ids lie above every id of `things`, so `provably-empty-first` drains
        // `left` first for the disjoint join too (forty-fourth session): off here.
        XCTAssertEqual(try rowsRead(query, table, disable: ["filter-aware-ordering", "sampled-estimate-ordering", "provably-empty-first"]), 10)
        XCTAssertEqual(try rowsRead(query, table, disable: ["provably-empty-first"]), 0)
        XCTAssertEqual(try rowsRead(query, table), 0)
    }

    /// Seed 26 case 410: `shared join (t1 select (…) minus shared)`, `shared = t0 join t2`.
    /// Every source of the producing side (`shared`) is under the waiting side too; the
    /// pair now counts them, `other` waits, and the join filter from `shared` narrows it.
    func testAProducingSideSharedWithTheWaitingSideStillDefers() throws {
        let table = try things()
        let pick = Relation(source: try MemoryTable(name: "pick", columns: ["id"], rows: [[.integer(3)], [.integer(7)]]))
        let other = try MemoryTable(name: "other", columns: ["id", "label"],
                                    rows: (11...19).map { [.integer($0), .text("o\($0)")] })
        let shared = try Relation(source: table).join(pick)
        let query = try shared.join(Relation(source: other).select("label" *!= "q").difference(shared))
        XCTAssertEqual(try rowsRead(query, other, preset: "seed"), 9)
        XCTAssertEqual(try rowsRead(query, other, disable: ["filter-aware-ordering", "sampled-estimate-ordering"]), 9)
        XCTAssertEqual(try rowsRead(query, other), 0)
    }

    /// Seed 26 case 1442: a large unindexed source keyed by a small sibling through a
    /// select (`big select (d != 1000) join probe`) no longer counts as a larger source
    /// the producing side must drain, so `other` waits for that side's keys.
    func testALargerSourceKeyedThroughASelectDoesNotBlockADeferral() throws {
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["b"], rows: [[.integer(1)], [.integer(2)]]))
        let big = try MemoryTable(name: "big", columns: ["b", "d"], rows: (1...60).map { [.integer($0), .integer($0)] })
        let other = try MemoryTable(name: "other", columns: ["d", "e"], rows: (1...30).map { [.integer($0 + 10), .integer($0)] })
        let inner = try Relation(source: big).select("d" *!= 1000).join(probe)
        let query = try inner.join(Relation(source: other).select("e" *> 0))
        XCTAssertEqual(try rowsRead(query, other, preset: "seed"), 30)
        XCTAssertEqual(try rowsRead(query, other, disable: ["filter-aware-ordering", "sampled-estimate-ordering"]), 30)
        XCTAssertEqual(try rowsRead(query, other), 0)
    }
    /// Seed 23 case 1667: `t2 join t0` (2 rows indexed, 86 unindexed) waiting for a one-row
    /// side's keys. Each source's rows were "held" at the join by the other, so neither was
    /// deferred; but that join is the waiting side itself, started by either. Deferred, the
    /// one-row side's key empties `small` through its index and `big` gets `false`.
    func testSourcesHeldByEachOtherAtTheWaitingJoinAreDeferred() throws {
        let small = try MemoryTable(name: "small", columns: ["k", "m"], rows: [[.integer(1), .integer(1)], [.integer(2), .integer(2)]],
                                    indexedAttributes: ["k"])
        let big = try MemoryTable(name: "big", columns: ["m"], rows: (1...20).map { [.integer($0)] })
        let one = try MemoryTable(name: "one", columns: ["k", "x"],
                                  rows: [[.integer(99), .integer(1)], [.integer(98), .integer(-1)], [.integer(97), .integer(-2)]])
        let query = try Relation(source: small).join(Relation(source: big)).join(Relation(source: one).select("x" *> 0))
        XCTAssertEqual(try rowsRead(query, small, preset: "seed"), 2)
        XCTAssertEqual(try rowsRead(query, small, disable: ["filter-aware-ordering", "sampled-estimate-ordering"]), 2)
        XCTAssertEqual(try rowsRead(query, small), 0)
    }
}
