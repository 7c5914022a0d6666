import XCTest
final class ExperimentsPlaceholderTests: XCTestCase { func testPlaceholder() {} }
