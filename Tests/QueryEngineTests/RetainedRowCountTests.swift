@testable import QueryEngine
import Relational
import XCTest

/// A heuristic asks a kernel how many rows it retains before asking for them
/// (`RunnerContext.operandRows(of:operand:atMost:)`), so that a complete operand over the
/// limit is refused without decoding it: `set-operand-filter` on `(ids union parent ids)
/// minus roots` decoded the left side's 99,000 rows per run to find them over its 10,000.
/// The count must be exactly what `retainedRows` would hand out, for every kernel that
/// keeps an operand's rows, whether the rows came as table views or decoded, one-integer
/// or not, inside the integer window or far outside it.
final class RetainedRowCountTests: XCTestCase {
    private let scheme = try? Scheme([Attribute("a")])

    /// Integers in and far outside the window, integral and other reals (`30.0` keys as
    /// `30`), text and null, as a memory table's view batches and as decoded rows. An
    /// operand delivers a set, so no row comes twice.
    private func batches() throws -> [Batch] {
        let values: [Value] = [1, 2, 3, .real(2.5), "3", nil, .integer(1 << 40), .integer(-(1 << 40)), "x", 10, 11]
        let table = try MemoryTable(name: "t", columns: ["a"], rows: values.map { [$0] })
        var scan = try table.makeBatchScan(filter: nil)
        var out: [Batch] = []
        while true {
            let batch = scan.next(maxRows: 5)
            if batch.selection.isEmpty { break }
            out.append(Batch(.columns(ColumnView(batch))))
        }
        XCTAssertGreaterThan(out.count, 1, "more than one view batch")
        out.append(Batch([Row([.real(30)]), Row([7]), Row(["y"])]))
        out.append(Batch([Row([.real(Double(1 << 41))]), Row([.integer(-5)])]))
        return out
    }

    private func kernel(_ op: Operator) throws -> any Kernel {
        let scheme = try XCTUnwrap(scheme)
        return try KernelFactory.make(op, operands: [scheme, scheme], output: scheme)
    }

    private func assertCountsAgree(_ kernel: any Kernel, operand: Int, _ what: String) {
        let rows = kernel.retainedRows(ofOperand: operand)
        let count = kernel.retainedRowCount(ofOperand: operand)
        XCTAssertEqual(count, rows?.count, what)
        if let rows { XCTAssertEqual(Set(rows).count, rows.count, "\(what): retained rows are distinct") }
    }

    func testDifferenceCountsItsHeldBackLeftRows() throws {
        let kernel = try kernel(.difference)
        assertCountsAgree(kernel, operand: 0, "difference before any row")
        for batch in try batches() {
            _ = kernel.receive(batch, operand: 0)
            assertCountsAgree(kernel, operand: 0, "difference after a left batch")
        }
        XCTAssertEqual(kernel.retainedRowCount(ofOperand: 0), 16)
        XCTAssertNil(kernel.retainedRowCount(ofOperand: 1), "a difference never retains its right side")
        _ = kernel.operandCompleted(1)
        XCTAssertNil(kernel.retainedRowCount(ofOperand: 0), "released once the right side is complete")
        XCTAssertNil(kernel.retainedRows(ofOperand: 0))
    }

    func testIntersectionCountsEachSideWhileTheOtherIsOpen() throws {
        let kernel = try kernel(.intersection)
        for (i, batch) in try batches().enumerated() {
            _ = kernel.receive(batch, operand: i % 2)
            assertCountsAgree(kernel, operand: 0, "intersection side 0 after batch \(i)")
            assertCountsAgree(kernel, operand: 1, "intersection side 1 after batch \(i)")
        }
        XCTAssertEqual(kernel.retainedRowCount(ofOperand: 0).map { $0 > 0 }, true)
        _ = kernel.operandCompleted(0)
        XCTAssertNil(kernel.retainedRowCount(ofOperand: 1), "nothing probes side 1 any more")
        assertCountsAgree(kernel, operand: 0, "intersection side 0 after side 0 completed")
    }

    func testJoinCountsTheSideItStores() throws {
        let kernel = try kernel(.join([]))
        for batch in try batches() {
            _ = kernel.receive(batch, operand: 1)
            assertCountsAgree(kernel, operand: 1, "join side 1")
        }
        XCTAssertEqual(kernel.retainedRowCount(ofOperand: 1), 16)
    }

    /// Through the engine, checked (as every test runs): `set-operand-filter` asks for the
    /// difference's complete left operand, which is over its limit here and must be
    /// refused on its count; a kernel that made the rows without counting them breaks the
    /// invariant and fails the run (`uncountedRows`). Under the limit the filter is built.
    func testSetOperandFilterAsksForCountedRowsOnly() throws {
        let documents = Relation(source: try Fixtures.documents(300))
        let ids = try documents.project(["id"])
        let parentIDs = try documents.project(["parent_id"]).rename(["parent_id": "id"])
        let roots = try documents.select(Attribute("parent_id") *== Value.null).project(["id"])
        let query = try ids.union(parentIDs).difference(roots)
        let reference = try query.rows().sorted()
        for maxRows in [10, 10_000] {
            var engine = QueryEngine(flags: try HeuristicCatalog.standard.flagSet(
                preset: "all-on", set: ["set-operand-filter-max-rows": "\(maxRows)"]))
            XCTAssertTrue(engine.checked)
            engine.checked = true
            let run = try engine.run([query])
            XCTAssertEqual(run.results[0].sorted(), reference, "max rows \(maxRows)")
        }
    }

    /// The window's own count, through single inserts and a batch of keys.
    func testIntegerWindowCountsNewValuesOnly() {
        var window = IntegerWindowSet(around: 0, span: 1 << 16)
        XCTAssertEqual(window.count, 0)
        XCTAssertTrue(window.insert(5))
        XCTAssertFalse(window.insert(5))
        let keys: [Int64] = [5, 6, 6, 7, 1 << 40]
        var fresh: [Int] = [], outside: [Int] = []
        keys.withUnsafeBufferPointer { window.insertEach($0, skip: [], fresh: &fresh, outside: &outside) }
        XCTAssertEqual(fresh, [1, 3])
        XCTAssertEqual(outside, [4])
        XCTAssertEqual(window.count, 3)
        XCTAssertEqual(window.count, window.values.count)
    }
}
