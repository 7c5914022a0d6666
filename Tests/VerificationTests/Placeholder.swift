import XCTest
final class VerificationPlaceholderTests: XCTestCase { func testPlaceholder() {} }
