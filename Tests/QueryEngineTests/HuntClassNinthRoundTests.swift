import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, ninth round: `late-subtree-copying`'s third case copied a shared source for a
/// parent's narrowed filter because another parent "may still narrow" what it gave, when that
/// parent's narrowing waits on an operand that reads the source itself (so it comes only
/// after the source is drained, too late). The original then kept the copied parent's part
/// of its OR and read it anyway.
final class HuntClassNinthRoundTests: HuntCaseTestCase {
    /// Seed 19 case 1442: `(t1 minus t1 select (b > 30)) select (b <= null)` and
    /// `(t1 join [b = c] t2) select (b > 67)`, `t1` indexed (82 rows), `t2` two rows. `t1`
    /// gets `b > 67 or b <= null` at the start; `t2`'s keys narrow the join's edge, and the
    /// copy for it left the original under the whole OR (18 rows; 20 against 3). The
    /// difference waits on its left operand, `t1` itself, so it cannot narrow before `t1` is
    /// drained: no copy, and the join's keys narrow the OR (1 row here, the `id < 2` side).
    func testANarrowingWaitingOnTheSourceItselfDoesNotCountAsLater() throws {
        let table = try things(indexed: true)
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["id"], rows: [[.integer(4)], [.integer(12)]]))
        let shared = Relation(source: table)
        let left = try shared.difference(shared.select("id" *> 3)).select("id" *< 2)
        let right = try shared.join(probe).select("id" *> 6)
        XCTAssertEqual(try rowsRead([left, right], table, preset: "seed"), 1)
        XCTAssertEqual(try rowsRead([left, right], table, disable: ["late-subtree-copying"]), 1)
        XCTAssertEqual(try rowsRead([left, right], table), 1)  // 5 when copied: the original read `id > 6 or id < 2`
    }
}
