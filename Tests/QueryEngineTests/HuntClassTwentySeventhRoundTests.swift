import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, twenty-seventh round (twenty-third session): the held-out case the
/// twenty-second session left open, seed 186 case 1472 at `--rows 3000`.
final class HuntClassTwentySeventhRoundTests: HuntCaseTestCase {
    /// `(t2 join t0) project [b, e] select (not (b != 321))`: `t2` 5 rows, no index; `t0`
    /// 2,948 rows indexed on `b`, one of them with `b == 321`. No index reads the NOT, so
    /// `t0` was sized by its statistics sample, which held no 321: half a sampled row, about
    /// 11.5 rows, more than `t2`'s 5, and `t2` went first (5 rows against 1). The sample
    /// now asks the index for the NOT-free form (`Predicate.negationsPushed`): 1 row.
    func testANegatedComparisonIsSizedByTheIndex() throws {
        let (t0, t2) = try tables()
        let query = try Relation(source: t2).join(Relation(source: t0)).project(["b", "e"])
            .select(.not("b" *!= 1))
        XCTAssertEqual(try totalRead(query, [t0, t2]), 1)
        // The seed sizes `t0` whole and drains `t2` first.
        XCTAssertEqual(try totalRead(query, [t0, t2], preset: "seed"), 5)
    }

    /// The sample itself: the pushed form's index count, scaled by the sampled fraction of
    /// the conjuncts no index fetches; a filter with no NOT is sampled as before.
    func testTheSampleCountsANegatedIndexedComparisonByTheIndex() throws {
        let (t0, _) = try tables()
        XCTAssertEqual(SampledEstimates.sample(t0, .not("b" *!= 1)), 100)
        XCTAssertEqual(SampledEstimates.sample(t0, .not(.any(["b" *!= 1, "b" *!= 2]))), 0)
        // Every sampled row has `e < 5` (the whole index count); none has `e >= 5` (less than a row).
        XCTAssertEqual(SampledEstimates.sample(t0, .all([.not("b" *!= 1), "e" *< 5])), 100)
        XCTAssertLessThan(try XCTUnwrap(SampledEstimates.sample(t0, .all([.not("b" *!= 1), "e" *>= 5]))), 100)
        // Without a NOT the index is not asked: the sample holds no `b == 1`, half a row scaled.
        let plain = try XCTUnwrap(SampledEstimates.sample(t0, "b" *== 1))
        XCTAssertGreaterThan(plain, 100)
    }

    /// `t0`: 3,000 rows, `b` unique and indexed, the row with `b == 1` (not in the 128-row
    /// statistics sample) joining nothing in `t2`; `t2`: 5 rows.
    private func tables() throws -> (t0: MemoryTable, t2: MemoryTable) {
        let rows: [[Value]] = (0..<3000).map { i in [.integer(i), .integer(i == 1 ? 10_000 : i % 5)] }
        let t0 = try MemoryTable(name: "t0", columns: ["b", "e"], rows: rows, indexedAttributes: ["b"])
        let t2 = try MemoryTable(name: "t2", columns: ["e"], rows: (0..<5).map { [.integer($0)] })
        return (t0, t2)
    }
}
