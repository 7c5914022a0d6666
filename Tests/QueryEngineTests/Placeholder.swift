import XCTest
final class QueryEnginePlaceholderTests: XCTestCase { func testPlaceholder() {} }
