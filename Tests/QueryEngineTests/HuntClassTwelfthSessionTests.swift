import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, twelfth session, from hunt seed 47 case 1009 (`all-on` 204 rows, `seed` 15): a
/// copy taken along an edge of a source whose filter was already active left the original
/// with the OR of both parents' filters, the copied edge's included, so the original read
/// for a parent it no longer had.
final class HuntClassTwelfthSessionTests: HuntCaseTestCase {
    /// Two outputs share `t` (indexed on `b`; `b` is 1-60 and 101-110): `(s minus s select
    /// (c == 1000)) select (c > 100)` with `s = t rename [b -> c]`, and `(t join e) select
    /// (b < 55)` with `e` empty. Both parents' filters reach `t` before it is read: `b > 100
    /// or b < 55`, 64 rows. `e` drains first and narrows the join's edge to `false`;
    /// `late-subtree-copying` gives the join its own copy of `t`, which reads nothing. The
    /// original has one parent left and now narrows to `b > 100` (10 rows); before, it kept
    /// the OR and read 64, where `seed` (no copy, the `false` narrowing the OR) reads 10.
    func testACopyAlongAnActiveSourcesEdgeNarrowsTheOriginalToItsRemainingParents() throws {
        let values = (1...60).map { Int64($0) } + (101...110).map { Int64($0) }
        let t = try MemoryTable(name: "t", columns: ["b", "d"], rows: values.map { [.integer($0), .integer($0)] },
                                indexedAttributes: ["b"])
        let e = Relation(source: try MemoryTable(name: "e", columns: ["b"], rows: []))
        let s = try Relation(source: t).rename(["b": "c"])
        let outputs = [
            try s.difference(s.select("c" *== 1000)).select("c" *> 100),
            try Relation(source: t).join(e).select("b" *< 55),
        ]
        XCTAssertEqual(try rowsRead(outputs, t, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(outputs, t, disable: ["late-subtree-copying"]), 10)
        XCTAssertEqual(try rowsRead(outputs, t), 10)  // 64 when the original kept the OR
    }

    private func rowsRead(
        _ outputs: [Relation], _ table: MemoryTable, preset: String = "all-on", disable: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Int {
        table.resetStatistics()
        let flags = try HeuristicCatalog.standard.flagSet(preset: preset, disable: disable)
        let run = try QueryEngine(flags: flags).run(outputs)
        let read = table.rowsDelivered
        for (i, output) in outputs.enumerated() {
            XCTAssertEqual(Set(run.results[i]), Set(try ReferenceEvaluator.evaluate(output)), "\(preset) -\(disable)",
                           file: file, line: line)
        }
        return read
    }
}
