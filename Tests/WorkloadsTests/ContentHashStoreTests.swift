import XCTest
import Relational
@testable import Workloads

/// Hashing a table held as columns gives the same hash as hashing its rows, in order or not.
final class ContentHashStoreTests: XCTestCase {
    func testColumnsHashLikeTheirRowsWhetherSortedOrNot() throws {
        let scheme = try Scheme(["a", "b"])
        let orders: [[Row]] = [
            [[1, "x"], [2, nil], [3, 2.5]],
            [[3, 2.5], [1, "x"], [2, nil]],
            [[1, "x"], [1, "x"]],
            [],
        ]
        for rows in orders {
            var fromRows = ContentHasher()
            fromRows.add(table: "t", scheme: scheme, rows: rows)
            var fromColumns = ContentHasher()
            fromColumns.add(table: "t", scheme: scheme, store: try ColumnStore(width: 2, rows: rows))
            XCTAssertEqual(fromColumns.hex, fromRows.hex, "\(rows)")
        }
    }
}
