import XCTest
@testable import Relational

/// Rows given in any column order are stored in the scheme's (sorted) order. Finding each
/// attribute's column by a linear search was quadratic in the width: an empty literal of
/// 100,000 attributes took 32 s to load. The order is now a sort of the column positions.
final class ColumnOrderTests: XCTestCase {
    /// Counts the comparisons made, the one measure of the work that does not depend on
    /// the machine: n log n for a sort, about n²/2 for a linear search per attribute.
    private final class Counter: @unchecked Sendable { var comparisons = 0 }

    private struct Counted: Comparable {
        let value: Int
        let counter: Counter
        static func == (l: Counted, r: Counted) -> Bool { l.counter.comparisons += 1; return l.value == r.value }
        static func < (l: Counted, r: Counted) -> Bool { l.counter.comparisons += 1; return l.value < r.value }
    }

    /// 0..<n in a scrambled order (a multiplier prime to n), the same on every run.
    private func scrambled(_ n: Int) -> [Int] { (0..<n).map { ($0 * 7_919) % n } }

    func testTheSortingOrderTakesNLogNComparisons() {
        let n = 20_000
        let counter = Counter()
        let given = scrambled(n).map { Counted(value: $0, counter: counter) }
        let order = Scheme.sortingOrder(of: given)
        XCTAssertEqual(order.map { given[$0].value }, Array(0..<n))
        // log2(20,000) < 15; a linear search per attribute makes some 10^8.
        XCTAssertLessThanOrEqual(counter.comparisons, 2 * 15 * n)
    }

    /// A 100,000-column table whose columns are given in a scrambled order keeps each value
    /// at its own attribute.
    func testAWideTableGivenInAnyColumnOrderStoresEachValueAtItsAttribute() throws {
        let n = 100_000
        let positions = scrambled(n)
        let columns = positions.map { Attribute("a\($0)") }
        let table = try MemoryTable(name: "wide", columns: columns, rows: [positions.map { .integer(Int64($0)) }])
        let row = try XCTUnwrap(table.allRows.first)
        XCTAssertEqual(table.scheme.count, n)
        let misplaced = table.scheme.attributes.indices.first { k in
            row[k] != .integer(Int64(table.scheme.attributes[k].name.dropFirst()) ?? -1)
        }
        XCTAssertNil(misplaced.map { "\(table.scheme.attributes[$0]) holds \(row[$0])" })
    }
}
