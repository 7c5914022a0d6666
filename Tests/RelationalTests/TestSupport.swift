import XCTest
@testable import Relational

/// XCTest brings in Foundation, whose `Predicate` macro type would otherwise clash.
typealias Predicate = Relational.Predicate

/// A memory-table relation from rows written in `columns` order, like PLRelational's
/// `MakeRelation`.
func makeRelation(
    _ name: String, _ columns: [Attribute], _ rows: [[Value]], indexed: [Attribute] = []
) throws -> Relation {
    Relation(source: try MemoryTable(name: name, columns: columns, rows: rows, indexedAttributes: indexed))
}

/// Asserts that `body` throws a `RelationError` whose message is exactly `message`.
func assertRelationError<T>(
    _ message: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T
) {
    do {
        _ = try body()
        XCTFail("expected the error \"\(message)\", but nothing was thrown", file: file, line: line)
    } catch let error as RelationError {
        XCTAssertEqual(error.description, message, file: file, line: line)
    } catch {
        XCTFail("expected a RelationError, got \(error)", file: file, line: line)
    }
}

/// The article prints rows in set (arbitrary) order and pads the last column with spaces;
/// our printer sorts rows in the value order and trims the last column. This checks that
/// `rendered` is `article` up to exactly those two differences: the same header line and
/// the same body lines, once trailing blanks are removed.
func assertSameTableAsArticle(
    _ rendered: String, _ article: String, file: StaticString = #filePath, line: UInt = #line
) {
    func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map { line in
            var s = Substring(line)
            while s.last == " " { s = s.dropLast() }
            return String(s)
        }
    }
    let ours = lines(rendered)
    let theirs = lines(article)
    XCTAssertEqual(ours.first, theirs.first, "header", file: file, line: line)
    XCTAssertEqual(ours.dropFirst().sorted(), theirs.dropFirst().sorted(), "body rows", file: file, line: line)
}

/// A source that hands out fixed rows and counts how often it was asked for them: the test
/// double that proves building relations reads nothing.
final class CountingSource: SourceRelation {
    let scheme: Scheme
    let sourceName: String
    private let stored: [Row]
    private(set) var cursorsMade = 0
    private(set) var estimatesAsked = 0

    init(name: String, scheme: Scheme, rows: [Row]) {
        self.sourceName = name
        self.scheme = scheme
        self.stored = rows
    }

    func makeCursor(filter: Predicate?) throws -> any RowCursor {
        cursorsMade += 1
        guard let filter else { return ArrayCursor(stored) }
        let test = try CompiledPredicate(filter, scheme: scheme)
        return ArrayCursor(stored.filter { test.matches($0) })
    }

    func canFetchSelectively(_ filter: Predicate) -> Bool { false }

    func estimatedCount(filter: Predicate?) -> Int? {
        estimatesAsked += 1
        return nil
    }
}
