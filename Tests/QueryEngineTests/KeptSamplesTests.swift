import XCTest
import Relational
@testable import QueryEngine

/// Sampled estimates are kept across a prepared query's runs by table and filter
/// (`KeptSamples`), but only while the table's rows stay the same: after a change the next
/// run samples the new rows.
final class KeptSamplesTests: XCTestCase {
    private func table() throws -> MemoryTable {
        try MemoryTable(name: "t", columns: ["a", "b"], rows: (0..<1_000).map { [.integer(Int64($0)), .integer(Int64($0 % 7))] })
    }

    func testAnAnswerHoldsWhileTheRowsDoAndIsAskedAgainAfterAChange() throws {
        let t = try table()
        let samples = SampledEstimates()
        let filter: Relational.Predicate = Attribute("b") *== 3
        let first = try XCTUnwrap(samples.hundredths(0, table: t, filter: filter))
        // About a seventh of 1,000 rows, in hundredths.
        XCTAssertEqual(Double(first), 14_285, accuracy: 3_000)

        samples.removeAll()
        XCTAssertEqual(samples.hundredths(0, table: t, filter: filter), first, "the same rows: the same answer")

        // Every row now has b == 3: a kept answer would still say a seventh.
        _ = try t.delete(where: .constant(true))
        try t.add(contentsOf: (0..<1_000).map { Row([.integer(Int64($0)), .integer(3)]) })
        samples.removeAll()
        let after = try XCTUnwrap(samples.hundredths(0, table: t, filter: filter))
        XCTAssertEqual(after, 100_000)
    }

    /// The same filter on another table with the same rows is its own answer.
    func testAnswersAreByTable() throws {
        let t = try table()
        let other = try MemoryTable(name: "u", columns: ["a", "b"], rows: (0..<1_000).map { [.integer(Int64($0)), .integer(3)] })
        let samples = SampledEstimates()
        let filter: Relational.Predicate = Attribute("b") *== 3
        let onT = try XCTUnwrap(samples.hundredths(0, table: t, filter: filter))
        samples.removeAll()
        let onOther = try XCTUnwrap(samples.hundredths(0, table: other, filter: filter))
        XCTAssertNotEqual(onT, onOther)
        XCTAssertEqual(onOther, 100_000)
    }
}
