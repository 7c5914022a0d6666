import Relational
import XCTest
@testable import QueryEngine

/// Issue 15, forty-first session: held-out seed 504 case 1912 at `--rows 300`, a shared
/// select over a node something else reads too, whose copy `late-subtree-copying` vetoed
/// although the copied select would narrow its own read to nothing; and 307 case 346 at the
/// default rows, a filter one sampled row meets, sized at the sample's spacing; and 550
/// case 1812 at `--rows 300`, an empty source drained first that started a shared node;
/// and 329 case 960 at the default rows, a closure search pinned at both ends, sized at its
/// first fetch.
final class HuntClassFortyFourthRoundTests: HuntCaseTestCase {
    /// `t0(a, b, d)`: 40 rows, `b` 0…39, `d` twice that; `a` null on the five rows with
    /// `b` 0…4 and `b` elsewhere. Indexed on every attribute.
    private func table() throws -> MemoryTable {
        let rows: [[Value]] = (0..<40).map { (i: Int) -> [Value] in
            [i < 5 ? .null : .integer(Int64(i)), .integer(Int64(i)), .integer(Int64(2 * i))]
        }
        return try MemoryTable(name: "t0", columns: ["a", "b", "d"], rows: rows, indexedAttributes: ["a", "b", "d"])
    }

    /// `shared = t0 rename […]`, `shared_2 = shared select (narrowing)`, output `((shared
    /// intersect shared_2 intersect shared_2) select (g == null)) minus t0 rename […]`.
    private func query(_ t0: MemoryTable, narrowing: Relational.Predicate) throws -> Relation {
        let shared = try Relation(source: t0).rename(["a": "g", "b": "f", "d": "e"])
        let shared2 = try shared.select(narrowing)
        let left = try shared.intersection(shared2).intersection(shared2).select("g" *== .null)
        return try left.difference(Relation(source: t0).rename(["a": "e", "b": "f", "d": "g"]))
    }

    /// Both intersections give `shared_2` `g == null`, so the copy the seed's criteria ask
    /// for along one of them was vetoed (the same filter either way), and `shared` (which
    /// `shared_2`'s select cannot narrow: the intersection reads it too) delivered the five
    /// null rows. A copy is a tree the copied select alone reads: its `f == 19 and g < 71`
    /// narrows the copy to nothing, the copy completes empty, both intersections are empty,
    /// and the difference gives its right side `false` (`copiedSelectNarrows`): 0 rows.
    func testACopyOfASelectOverASharedNodeNarrowsItsOwnRead() throws {
        let t0 = try table()
        let query = try query(t0, narrowing: .all(["f" *== 19, "g" *< 71]))
        XCTAssertEqual(try totalRead(query, [t0]), 0, "5 before")
        XCTAssertEqual(try totalRead(query, [t0], disable: ["late-subtree-copying"]), 0)
        XCTAssertEqual(try totalRead(query, [t0], preset: "seed"), 46)
    }

    /// A predicate that keeps the rows the filter fetches (`f < 19` holds on all five null
    /// rows) narrows nothing: the copy would read them again, so the veto stands.
    func testASelectThatNarrowsNothingKeepsTheVeto() throws {
        let t0 = try table()
        let query = try query(t0, narrowing: "f" *< 19)
        XCTAssertEqual(try totalRead(query, [t0]), 5)
        // `self-operand-folding` off: since the forty-ninth session it folds the query's
        // intersection with its own select, and no copy is asked for (5 rows either way).
        XCTAssertEqual(try totalRead(query, [t0], disable: ["late-subtree-copying"]), 5)
        XCTAssertEqual(try totalRead(query, [t0], disable: ["late-subtree-copying", "self-operand-folding"]), 15)
    }

    /// `t0(d, e)`: `rows` rows, `d` indexed; only the first (always in the sample) has `e <
    /// 0`, and its `d` is null.
    private func oneNegative(_ rows: Int) throws -> MemoryTable {
        let values: [[Value]] = (0..<rows).map { (i: Int) -> [Value] in
            i == 0 ? [.null, -5] : [.integer(Int64(i)), .integer(Int64(i % 50))]
        }
        return try MemoryTable(name: "t0", columns: ["d", "e"], rows: values, indexedAttributes: ["d"])
    }

    /// Held-out 307/346, the class: `(t3 join [b = d] t0) select (e < 0)`, `t0` 900 rows
    /// of which one meets `e < 0`, `t3` five rows indexed on `b`. The sample's one match
    /// scaled to the table sized `t0` at 7 rows, so `t3`'s 5 went first (5 rows). On a table
    /// this small one sampled match is now counted over the table (`SampledEstimates
    /// .exactCountLimit`): `t0` goes first, and its null key matches nothing of `t3` (1 row).
    func testOneSampledMatchOfASmallTableIsCounted() throws {
        let t0 = try oneNegative(900)
        let keys: [[Value]] = (1...5).map { (i: Int) -> [Value] in [.integer(Int64(7 * i)), .integer(Int64(i))] }
        let t3 = try MemoryTable(name: "t3", columns: ["b", "c"], rows: keys, indexedAttributes: ["b"])
        let query = try Relation(source: t3).equijoin(Relation(source: t0), matching: [JoinPair("b", "d")]).select("e" *< 0)
        XCTAssertEqual(try totalRead(query, [t0, t3]), 1, "5 before")
        XCTAssertEqual(try totalRead(query, [t0, t3], preset: "seed"), 5)
    }

    /// The size itself: one sampled match counts the table's matches up to the limit, and
    /// is scaled past it (a larger table's count would cost a pass the estimate must not).
    func testTheExactCountStopsAtItsLimit() throws {
        let negative: Relational.Predicate = "e" *< 0
        XCTAssertEqual(SampledEstimates.sample(try oneNegative(900), negative), 100)
        let large = SampledEstimates.exactCountLimit + 1
        let scaled = try XCTUnwrap(SampledEstimates.sample(try oneNegative(large), negative))
        XCTAssertEqual(scaled, (large * 100 + 127) / 128)
        // Two sampled matches are scaled as before.
        let twice = try MemoryTable(name: "t", columns: ["d", "e"], rows: (0..<900).map { (i: Int) -> [Value] in
            [.integer(Int64(i)), .integer(i == 0 || i == 7 ? -1 : 1)] })
        XCTAssertEqual(SampledEstimates.sample(twice, negative), (900 * 200 + 127) / 128)
    }

    /// Held-out 550/1812, the class: `shared = t0 union t0 select (b == 7 and b > 2.5 and b
    /// < -1.5)` under `shared join (t2 join shared)`, `t0` 40 rows indexed on `b`, `t2`
    /// empty. `provably-empty-first` drained the select's copy of `t0` first (its filter
    /// contradicts itself: 0 rows), which started `shared`; when `t2`'s empty product then
    /// gave `shared` `false`, it could not be copied apart from the output join waiting on
    /// it, and `t0` was read whole (40 rows). The union absorbs that copy's emptiness and
    /// has two parents, so it is now deferred (`ProvablyEmptyFirst`'s `absorption`): 0 rows.
    func testAnEmptySourceAUnionAbsorbsIsNotDrainedFirst() throws {
        let values: [[Value]] = (0..<40).map { (i: Int) -> [Value] in [.integer(Int64(i))] }
        let t0 = try MemoryTable(name: "t0", columns: ["b"], rows: values, indexedAttributes: ["b"])
        let t2 = try MemoryTable(name: "t2", columns: ["a", "c"], rows: [], indexedAttributes: ["a"])
        let contradiction: Relational.Predicate = .all(["b" *== 7, "b" *> 2.5, "b" *< -1.5])
        let shared = try Relation(source: t0).union(Relation(source: t0).select(contradiction))
        let query = try shared.join(Relation(source: t2).join(shared))
        XCTAssertEqual(try totalRead(query, [t0, t2]), 0, "40 before")
        XCTAssertEqual(try totalRead(query, [t0, t2], disable: ["provably-empty-first"]), 0)
    }

    /// Held-out 329/960, the class: `shared = t0 project [b, d] closure [d -> b]`, `(t1 join
    /// t0) rename […] join (shared join shared intersect t1 rename [a -> b, b -> d])`, `t0`
    /// 299 rows indexed on `b`, a chain `d → b` below 61 (row i: `(i, i, i - 1)`; above, `d`
    /// leads nowhere, which keeps the reference evaluator's closure small), `t1` the one row
    /// `(60, 20)`. The intersection's key pins both ends of the closure (`b == 60 and d ==
    /// 20`), and the search, backwards from `b == 60`, was sized at its first fetch, a tie
    /// with `t1 join t0`'s keyed fetch of `t0`, which was deferred behind it: the search read
    /// 60 rows (held-out: 927). Sized from the end it starts at (`searchesForwards`) and
    /// deferred behind the smaller fetch (`deferLongSearches`), it waits; the keyed fetch
    /// finds nothing, and the output join's empty side leaves the closure `false` (1 row).
    func testASearchPinnedAtBothEndsIsSizedFromItsStart() throws {
        let chain: [[Value]] = (1..<300).map { (i: Int) -> [Value] in
            [.integer(Int64(i)), .integer(Int64(i)), .integer(Int64(i <= 60 ? i - 1 : i + 1_000))]
        }
        let t0 = try MemoryTable(name: "t0", columns: ["a", "b", "d"], rows: chain, indexedAttributes: ["b"])
        let t1 = try MemoryTable(name: "t1", columns: ["a", "b"], rows: [[60, 20]], indexedAttributes: ["a", "b"])
        let shared = try Relation(source: t0).project(["b", "d"]).closure("d", "b")
        let left = try Relation(source: t1).join(Relation(source: t0)).rename(["a": "c", "b": "e", "d": "g"])
        let right = try shared.join(shared).intersection(Relation(source: t1).rename(["a": "b", "b": "d"]))
        let query = try left.join(right)
        XCTAssertEqual(try totalRead(query, [t0, t1]), 1, "61 before")
        XCTAssertEqual(try totalRead(query, [t0, t1], disable: ["closure-seeding"]), 1)
        XCTAssertEqual(try totalRead(query, [t0, t1], preset: "seed"), 300)
    }
}
