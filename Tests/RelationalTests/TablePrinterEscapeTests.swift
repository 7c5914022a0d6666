import XCTest
@testable import Relational

/// A table printed to the terminal shows control characters in data as escapes.
final class TablePrinterEscapeTests: XCTestCase {
    func testControlCharactersInTextAndNamesAreEscaped() throws {
        let table = try MemoryTable(name: "t", columns: ["a\tb"], rows: [[.text("x\u{1B}[2Jy")], [.text("line\nbreak")], [.text("plain")]])
        let rendered = try TablePrinter.render(Relation(source: table))
        XCTAssertEqual(rendered, "a\\u{9}b\nline\\u{a}break\nplain\nx\\u{1b}[2Jy\n")
        XCTAssertFalse(rendered.unicodeScalars.contains("\u{1B}"))
    }
}
