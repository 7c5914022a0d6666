import XCTest
final class WorkloadsPlaceholderTests: XCTestCase { func testPlaceholder() {} }
