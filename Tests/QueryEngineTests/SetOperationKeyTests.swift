@testable import QueryEngine
import Relational
import XCTest

/// Union, difference and intersection keep one-integer rows as bits in a window of values
/// (`RowKeySet`, `IntegerWindowSet`) and every other row as its key encoding, reading a
/// one-column view's integers a batch at a time. Results must equal the reference
/// evaluator's at every batch size, with nulls, integral and other reals (`3 == 3.0`),
/// text that spells a number, integers far outside the window, and operands that arrive as
/// views or as decoded rows.
final class SetOperationKeyTests: XCTestCase {
    /// A source that is not a memory table, so its rows reach the kernels decoded (filtered,
    /// when the engine asks, by the engine's own compiled predicate).
    private final class RowsSource: SourceRelation {
        let scheme: Scheme
        let sourceName: String
        let rows: [Row]

        init(name: String, attribute: Attribute, rows: [Row]) throws {
            scheme = try Scheme([attribute])
            sourceName = name
            self.rows = rows
        }

        func makeCursor(filter: Relational.Predicate?) throws -> any RowCursor {
            guard let filter else { return ArrayCursor(rows) }
            let test = try CompiledPredicate(filter, scheme: scheme)
            return ArrayCursor(rows.filter { test.matches($0) })
        }

        func canFetchSelectively(_ filter: Relational.Predicate) -> Bool { false }
        func estimatedCount(filter: Relational.Predicate?) -> Int? { rows.count }
    }

    private func table(_ name: String, _ values: [Value]) throws -> Relation {
        Relation(source: try MemoryTable(name: name, columns: ["v"], rows: values.map { [$0] }, indexedAttributes: ["v"]))
    }

    private func decoded(_ name: String, _ values: [Value]) throws -> Relation {
        Relation(source: try RowsSource(name: name, attribute: "v", rows: values.map { Row([$0]) }))
    }

    private func check(_ query: Relation, rows expected: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = Set(try ReferenceEvaluator.evaluate(query).map(Self.canonical))
        XCTAssertEqual(reference.count, expected, "reference", file: file, line: line)
        for preset in ["all-off", "all-on"] {
            for batchSize in [1, 2, 3, 1024] {
                var engine = try QueryEngine(preset: preset)
                engine.batchSize = batchSize
                let run = try engine.run([query])
                let rows = run.results[0]
                XCTAssertEqual(rows.count, expected, "\(preset), batch \(batchSize): \(rows)", file: file, line: line)
                XCTAssertEqual(Set(rows.map(Self.canonical)), reference, "\(preset), batch \(batchSize)", file: file, line: line)
            }
        }
    }

    /// A row with integral reals spelled as integers, so sets compare under `3 == 3.0`.
    private static func canonical(_ row: Row) -> Row {
        Row(row.values.map { value in
            if case let .real(d) = value, d.rounded() == d, let i = Int64(exactly: d) { return .integer(i) }
            return value
        })
    }

    /// Nulls, integral reals, a non-integral real, text spelling a number, negatives and
    /// integers at both ends of the range, beside a run of small ids.
    private let mixed: [Value] = [1, 2, 3.0, nil, 4.5, "5", -7, .integer(.max), .integer(.min),
                                  1_099_511_627_776, 70_000, -70_000, 6, 8, 10]
    private let other: [Value] = [3, 2.0, nil, "5", 5, 4.5, 1_099_511_627_776, .integer(.max - 1), -70_000, 11, 12.25]

    func testUnionOfViewsAndDecodedRows() throws {
        // mixed ∪ other: mixed's 15 plus 5, 9223372036854775806, 11 and 12.25.
        try check(try table("a", mixed).union(try table("b", other)), rows: 19)
        try check(try table("b", other).union(try table("a", mixed)), rows: 19)
        try check(try decoded("a", mixed).union(try table("b", other)), rows: 19)
        try check(try table("a", mixed).union(try decoded("b", other)), rows: 19)
        try check(try table("a", mixed).union(try table("a2", mixed)), rows: 15)
    }

    func testDifferenceOfViewsAndDecodedRows() throws {
        // mixed minus other: drops 2, 3.0, null, 4.5, "5", 1 << 40 and -70000.
        try check(try table("a", mixed).difference(try table("b", other)), rows: 8)
        try check(try table("a", mixed).difference(try decoded("b", other)), rows: 8)
        try check(try decoded("a", mixed).difference(try table("b", other)), rows: 8)
        // other minus mixed: 5, 9223372036854775806, 11, 12.25.
        try check(try table("b", other).difference(try table("a", mixed)), rows: 4)
        try check(try table("a", mixed).difference(try table("a2", mixed)), rows: 0)
    }

    func testIntersectionOfViewsAndDecodedRows() throws {
        try check(try table("a", mixed).intersection(try table("b", other)), rows: 7)
        try check(try decoded("b", other).intersection(try table("a", mixed)), rows: 7)
        try check(try table("b", other).intersection(try decoded("a", mixed)), rows: 7)
    }

    /// The bulk query's shape: a table's ids united with its parent ids (nulls among them,
    /// one parent given as an equal real, one as text), minus the root ids.
    func testIdsUnionParentIdsMinusRoots() throws {
        var rows: [[Value]] = []
        for i in 1...600 {
            let parent: Value = i % 97 == 1 ? nil : (i == 50 ? .real(25) : (i == 60 ? "30" : .integer(Int64(i / 2))))
            rows.append([.integer(Int64(i)), parent])
        }
        rows.append([100_000, 1_000_000_000])
        let documents = Relation(source: try MemoryTable(name: "documents", columns: ["id", "parent_id"], rows: rows,
                                                         indexedAttributes: ["id", "parent_id"]))
        let ids = try documents.project(["id"])
        let parentIDs = try documents.project(["parent_id"]).rename(["parent_id": "id"])
        let roots = try documents.select(Attribute("parent_id") *== Value.null).project(["id"])
        // 601 ids, plus null, "30" and 1e9 from the parents, minus the 7 roots.
        try check(try ids.union(parentIDs).difference(roots), rows: 601 + 3 - 7)
        try check(try ids.union(parentIDs).intersection(roots), rows: 7)
    }

    func testWindowKeepsValuesNearTheRangeEnds() {
        for center in [Int64.min, Int64.min + 5, -1, 0, Int64.max - (1 << 20), Int64.max - 5, Int64.max] {
            var window = IntegerWindowSet(around: center, span: 1 << 16)
            // The window stays a span below Int64.max (values there go to the encoded set).
            XCTAssertEqual(window.covers(center), center < Int64.max - (1 << 18), "\(center)")
            guard window.covers(center) else { continue }
            XCTAssertTrue(window.insert(center))
            XCTAssertFalse(window.insert(center))
            XCTAssertTrue(window.contains(center))
            for far in [Int64.min, Int64.max, center &+ (1 << 40), center &- (1 << 40)] where far != center {
                XCTAssertFalse(window.contains(far), "\(center), \(far)")
            }
            XCTAssertEqual(window.values, [center])
        }
        var keys = RowKeySet()
        for i: Int64 in [0, Int64.max, Int64.min, 1 << 40, -(1 << 40), 70_000] { XCTAssertTrue(keys.insert(integer: i)) }
        for i: Int64 in [0, Int64.max, Int64.min, 1 << 40, -(1 << 40), 70_000] {
            XCTAssertFalse(keys.insert(integer: i))
            XCTAssertTrue(keys.contains(integer: i))
        }
        XCTAssertFalse(keys.contains(integer: 1))
        XCTAssertEqual(Set(keys.allValues.map { Row($0) }), Set([0, Int64.max, Int64.min, 1 << 40, -(1 << 40), 70_000].map { Row([.integer($0)]) }))
    }
}
