import XCTest
@testable import Experiments

final class OutputLocationTests: XCTestCase {
    func testNamesThatWouldLeaveResultsAreRejected() {
        for name in ["../escape", "..", "a/../../b", "/tmp/escape", "a/b", ".hidden", "", "name with space", "x\\..\\y"] {
            XCTAssertNotNil(OutputLocation.validateName(name), name)
            XCTAssertThrowsError(try OutputLocation.defaultDirectory(resultsRoot: "Results", name: name), name)
        }
    }

    func testPlainNamesLandUnderResults() throws {
        for name in ["subtree-copying", "smoke", "join_threshold.v2"] {
            XCTAssertNil(OutputLocation.validateName(name), name)
            let directory = try OutputLocation.defaultDirectory(resultsRoot: "Results", name: name)
            XCTAssertTrue(directory.hasPrefix("Results/\(name)/"), directory)
            XCTAssertEqual(directory.split(separator: "/").count, 3)
        }
    }

    func testFlagSetAndQueryNamesAreChecked() throws {
        let scratch = try Scratch()
        let badFlagSet = tinyConfig().replacingOccurrences(of: "  no-copying: {", with: "  ../no-copying: {")
            .replacingOccurrences(of: "baseline: no-copying", with: "baseline: all-on")
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(badFlagSet, in: scratch, console: console), 2)
        XCTAssertTrue(console.err.contains("flagsets.../no-copying"), console.err)
        XCTAssertEqual(scratch.resultsEntries(), [])
    }

    func testAnExistingOutputDirectoryIsNotOverwritten() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out), 0)
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, console: console), 2)
        XCTAssertTrue(console.err.contains("already exists"), console.err)
    }
}
