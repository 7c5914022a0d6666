import Foundation
import XCTest

/// `testbed verify`'s numeric options, through the built executable: ArgumentParser parses
/// them, out-of-range values are refused before anything runs, and both exit 2 (bad usage).
final class VerifyCommandLineTests: XCTestCase {
    private func verify(_ arguments: String...) throws -> TestbedProcess.Outcome { try verify(arguments) }

    private func verify(_ arguments: [String]) throws -> TestbedProcess.Outcome {
        let testbed = try TestbedProcess(label: "verify-cli")
        defer { testbed.remove() }
        return try testbed.run(["verify"] + arguments)
    }

    private var catalog: String { TestbedProcess.catalog }

    func testSizesOutsideTheShapesRowRangeAreRejectedNotRoundedUp() throws {
        for sizes in ["0", "20,0", "20,-5", "100000001", "20,9223372036854775807"] {
            let outcome = try verify("--sizes=\(sizes)", "--directory", catalog)
            XCTAssertEqual(outcome.status, 2, sizes)
            XCTAssertTrue(outcome.err.hasPrefix("testbed: --sizes: '\(sizes.split(separator: ",").last ?? "")' is not a "
                + "dataset size; expected integers from 1 to 100000000"), outcome.err)
            XCTAssertEqual(outcome.out, "", "nothing ran")
        }
    }

    func testMalformedOrNegativeNumbersAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--random", "x"], "The value 'x' is invalid for '--random <random>'"),
            (["--random=-1"], "--random: '-1' is not a non-negative integer"),
            (["--random", "0"], "--random: '0' is not valid; expected an integer >= 1"),
            (["--random", "2", "--runs-per-case=-1"], "--runs-per-case: '-1' is not a non-negative integer"),
            (["--max-reductions=-2"], "--max-reductions: '-2' is not a non-negative integer"),
            (["--random", "2", "--runs-per-case", "0"], "--runs-per-case: '0' is not valid; expected an integer >= 1"),
            (["--random", "2", "--seed=-3"], "--seed"),
            (["--seed", "18446744073709551616"], "The value '18446744073709551616' is invalid for '--seed <seed>'"),
            (["--seeds", "1,a"], "'a' is not an integer"),
            (["--seeds", ","], "',' has an empty item"),
            (["--sizes", ","], "',' has an empty item"),
            (["--rows", "50"], "--rows sizes the random tables; it needs --random"),
            (["--random", "2", "--rows", "0"], "--rows: '0' is not valid; expected an integer from 1 to 5000"),
            (["--random", "2", "--rows", "5001"], "--rows: '5001' is not valid; expected an integer from 1 to 5000"),
        ]
        for (arguments, fragment) in cases {
            let run = try verify(arguments)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.err)")
            XCTAssertTrue(run.err.hasPrefix("testbed: "), "\(arguments): \(run.err)")
            XCTAssertFalse(run.err.contains("Error:"), "\(arguments): \(run.err)")
            XCTAssertTrue(run.err.contains(fragment), "\(arguments): '\(fragment)' not in: \(run.err)")
            XCTAssertEqual(run.out, "", "\(arguments): nothing ran")
        }
    }

    /// `--random` and `--runs-per-case` have upper bounds: unbounded, a count with a few
    /// zeros too many ran for days. Past a bound verify is refused naming the option and the
    /// bound; at the bounds the options pass, and verify stops at the next check, a TMPDIR
    /// that does not exist, so nothing runs.
    func testCountsPastTheirBoundsAreRefusedAndTheBoundsAccepted() throws {
        let testbed = try TestbedProcess(label: "verify-cli")
        defer { testbed.remove() }
        try testbed.assertCountBounds(
            "verify",
            refused: [
                (["--random", "10000001"], "testbed: --random: '10000001' is not valid; expected an integer from 1 to 10000000\n"),
                (["--random", "10000001", "--changes"],
                 "testbed: --random: '10000001' is not valid; expected an integer from 1 to 10000000\n"),
                (["--random", "5", "--runs-per-case", "1001"],
                 "testbed: --runs-per-case: '1001' is not valid; expected an integer from 1 to 1000\n"),
            ],
            accepted: [["--random", "10000000", "--runs-per-case", "1000"], ["--random", "10000000", "--runs-per-case", "1000", "--changes"]])
    }

    func testValidNumbersReachTheFuzzerAndTheCatalogRun() throws {
        let random = try verify("--random", "3", "--seed", "18446744073709551615", "--runs-per-case", "1", "--no-reduce")
        XCTAssertEqual(random.status, 0, random.err)
        XCTAssertTrue(random.out.contains("verify: 3 cases, 3 engine runs"), random.out)

        let large = try verify("--random", "3", "--rows", "120", "--runs-per-case", "1", "--no-reduce")
        XCTAssertEqual(large.status, 0, large.err)
        XCTAssertTrue(large.out.contains("verify: 3 cases, 3 engine runs"), large.out)

        // One catalog query of each of two shapes: the whole catalog under the full grid is
        // `testbed verify`'s job (and CatalogVerificationTests'), not this parsing test's.
        let small = FileManager.default.temporaryDirectory.appendingPathComponent("verify-cli-catalog-\(getpid())")
        try? FileManager.default.removeItem(at: small)
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: small) }
        for name in ["selected-document-parent", "employee-equipment"] {
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: catalog).appendingPathComponent("\(name).rq"),
                to: small.appendingPathComponent("\(name).rq"))
        }
        let catalogRun = try verify("--sizes", "3,5", "--seeds", "7", "--directory", small.path, "--no-reduce")
        XCTAssertEqual(catalogRun.status, 0, catalogRun.err)
        XCTAssertTrue(catalogRun.out.contains(" 0 differed"), catalogRun.out)
    }
}
