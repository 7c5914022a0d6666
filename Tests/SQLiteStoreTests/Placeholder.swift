import XCTest
final class SQLiteStorePlaceholderTests: XCTestCase { func testPlaceholder() {} }
