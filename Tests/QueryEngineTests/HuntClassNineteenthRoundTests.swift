import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, nineteenth round (sixteenth session): the one case over 4× on the held-out
/// hunt seeds 76–77. The seed's `subtree-copying` copies a shared node for a parent's filter
/// while its other parents wait, though those parents are about to give it the very same
/// filter in the same wave; each copy then reads the rows the original reads anyway.
final class HuntClassNineteenthRoundTests: HuntCaseTestCase {
    /// Seed 77 case 1690: `shared = t1 join t1`, `shared_2 = t1 intersect shared`, output
    /// `shared join (shared_2 minus shared union shared_2) join t0`. `t0` is one row
    /// (`c = 2.0`); `t1`, indexed on `c`, has two rows with `c = 2`. `t0`'s key reaches the
    /// outer join, which passes `c == 2.0` down both operands: to `shared` directly, and
    /// through the union, the difference and the intersection to `shared` and `t1` again.
    /// Copied at each shared node on the way, `t1` was read under that filter six times
    /// (13 rows; 21 under `seed`); with the copies vetoed (`late-subtree-copying`'s third
    /// case), once (3 rows, as without subtree copying).
    func testNoCopyForAParentWhoseFilterTheOthersGiveInTheSameWave() throws {
        let t0 = try MemoryTable(name: "t0", columns: ["c", "e"], rows: [[.real(2.0), .null]])
        var t1Rows: [[Value]] = [[.null, .integer(2), .integer(39)], [.integer(64), .integer(2), .null]]
        t1Rows += (0..<60).map { [.integer($0), .integer(10 + $0), .integer(100 + $0)] }
        let t1 = try MemoryTable(name: "t1", columns: ["b", "c", "d"], rows: t1Rows, indexedAttributes: ["c"])
        let shared = try Relation(source: t1).join(Relation(source: t1))
        let shared2 = try Relation(source: t1).intersection(shared)
        let query = try shared.join(shared2.difference(shared).union(shared2)).join(Relation(source: t0))
        let tables = [t0, t1]
        XCTAssertEqual(try totalRead(query, tables), 3)
        XCTAssertEqual(try totalRead(query, tables, disable: ["subtree-copying"]), 3)
        XCTAssertEqual(try totalRead(query, tables, preset: "seed"), 21)
        XCTAssertEqual(try totalRead(query, tables, disable: ["late-subtree-copying"]), 21)
    }
}
