import XCTest
@testable import Verification

/// `testbed verify --random N --rows R` leaves out a case whose all-off run does more work
/// than `Fuzzer.maxWork` (the hunt's bound), counting it apart from failures: at `--rows
/// 1000` one case of seed 889011 took 24 GB before the kernel killed the run.
final class FuzzerWorkBoundTests: XCTestCase {
    func testACaseOverTheBoundIsCountedAndNotChecked() throws {
        var fuzzer = Fuzzer(cases: 6, seed: 7)
        fuzzer.maxRows = 40
        fuzzer.reproParent = nil
        fuzzer.maxWork = 0
        let bounded = try fuzzer.run()
        // Every case with a row moves at least one, over a bound of none.
        XCTAssertGreaterThan(bounded.tooLarge, 0)
        XCTAssertEqual(bounded.tooLarge + bounded.engineRuns / fuzzer.runsPerCase, bounded.cases, "a case is checked or counted too large")
        XCTAssertTrue(bounded.passed, "a case too large to check is not a failure")
        XCTAssertTrue(bounded.summary.contains("too large to check"), bounded.summary)

        fuzzer.maxWork = RegretMeasurer.defaultMaxWork
        let whole = try fuzzer.run()
        XCTAssertEqual(whole.tooLarge, 0)
        XCTAssertGreaterThan(whole.engineRuns, bounded.engineRuns)
        XCTAssertEqual(whole.mismatches, 0)
    }

    /// Without `--rows` (the classic small tables) no case is bounded.
    func testSmallTablesAreNeverBounded() throws {
        var fuzzer = Fuzzer(cases: 6, seed: 7)
        fuzzer.reproParent = nil
        fuzzer.maxWork = 0
        let report = try fuzzer.run()
        XCTAssertEqual(report.tooLarge, 0)
        XCTAssertEqual(report.cases, 6)
    }
}
