import Foundation
import XCTest

/// `testbed hunt` through the built executable: bad usage exits 2 naming the option and
/// writes nothing; a small run writes the contract's files.
final class HuntCommandLineTests: XCTestCase {
    func testBadUsageIsRefusedBeforeAnythingRuns() throws {
        let cases: [([String], String)] = [
            ([], "give --random N"),
            (["--random", "0"], "--random: '0' is not valid"),
            (["--random", "5", "--rows", "0"], "--rows: '0' is not valid"),
            (["--random", "5", "--min-regret", "0.5"], "--min-regret: '0.5' is not valid"),
            (["--random", "5", "--flagsets", "all-on,nope"], "'nope' is not a flag set"),
            (["--random", "5", "--flagsets", "seed"], "--reduce-flagset: 'all-on' is not in the grid"),
            (["--random", "5", "--repro", "x"], "cannot be combined with --random"),
            (["--random", "5", "--case", "5"], "--case: '5' is not valid"),
            (["--random", "5", "--plans", "p"], "--plans goes with --repro DIR"),
        ]
        for (arguments, message) in cases {
            let testbed = try TestbedProcess(label: "hunt-cli")
            defer { testbed.remove() }
            let outcome = try testbed.run(["hunt"] + arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments): \(outcome.err)")
            XCTAssertTrue(outcome.err.hasPrefix("testbed: "), outcome.err)
            XCTAssertTrue(outcome.err.contains(message), "\(arguments): \(outcome.err)")
            XCTAssertEqual(testbed.listing(), [], "nothing written")
        }
    }

    /// `--random` and `--orders` have upper bounds: unbounded, a count with a few zeros too
    /// many ran for days. Past a bound the hunt is refused naming the option and the bound;
    /// at the bounds the options pass, and the hunt stops at the next check, a TMPDIR that
    /// does not exist, so nothing runs.
    func testCountsPastTheirBoundsAreRefusedAndTheBoundsAccepted() throws {
        let testbed = try TestbedProcess(label: "hunt-cli")
        defer { testbed.remove() }
        try testbed.assertCountBounds(
            "hunt",
            refused: [
                (["--random", "1000001"], "testbed: --random: '1000001' is not valid; expected an integer from 1 to 1000000\n"),
                (["--random", "5", "--orders", "1001"], "testbed: --orders: '1001' is not valid; expected an integer from 0 to 1000\n"),
            ],
            accepted: [["--random", "1000000", "--orders", "1000"]])
    }

    /// `--case N` writes one case whole as a repro; `--repro DIR --plans P` replays it and
    /// writes every flag set's plan graphs, and the best forced order's (a two-source case).
    func testOneCaseIsWrittenWholeAndItsPlansRendered() throws {
        let testbed = try TestbedProcess(label: "hunt-cli")
        defer { testbed.remove() }
        let written = try testbed.run("hunt", "--random", "6", "--rows", "50", "--seed", "2", "--case", "3", "--out", "out",
                                      "--flagsets", "all-on,seed")
        XCTAssertEqual(written.status, 0, written.err)
        XCTAssertTrue(written.out.contains("wrote case 3 whole"), written.out)
        let listing = testbed.listing()
        for file in ["query.rq", "manifest.txt", "regret.txt"] {
            XCTAssertTrue(listing.contains("out/repro/hunt-s2-case3/\(file)"), "\(file) in \(listing)")
        }
        let replay = try testbed.run("hunt", "--repro", "out/repro/hunt-s2-case3", "--flagsets", "all-on,seed", "--plans", "plans")
        XCTAssertTrue([0, 1].contains(replay.status), replay.err)
        XCTAssertTrue(replay.out.contains("seed+best-order (order 1 of 2)"), replay.out)
        for file in ["plans/all-on-final.dot", "plans/seed-final.dot", "plans/seed+best-order-final.dot"] {
            XCTAssertTrue(testbed.listing().contains(file), "\(file) in \(testbed.listing())")
        }
    }

    func testASmallHuntWritesRegretAndSummary() throws {
        let testbed = try TestbedProcess(label: "hunt-cli")
        defer { testbed.remove() }
        let outcome = try testbed.run("hunt", "--random", "6", "--rows", "100", "--seed", "2", "--out", "out", "--no-reduce")
        XCTAssertEqual(outcome.status, 0, outcome.err)
        let listing = testbed.listing()
        for file in ["out/regret.csv", "out/summary.csv", "out/estimate-violations.csv"] {
            XCTAssertTrue(listing.contains(file), "\(file) in \(listing)")
        }
        let regret = try String(contentsOfFile: testbed.directory.appendingPathComponent("out/regret.csv").path, encoding: .utf8)
        XCTAssertTrue(regret.hasPrefix("case,flagset,flags,source_rows_read,best_rows_read,regret,"))
        for preset in ["all-on", "seed", "all-off"] { XCTAssertTrue(regret.contains(",\(preset),"), preset) }
        XCTAssertTrue(outcome.out.contains("hunt: 6 queries measured"), outcome.out)
    }

    /// A `--min-regret` past `Int`'s range was written into summary.csv through `Int(x)`,
    /// which trapped after the whole hunt (exit 132, `--out` left holding its lock).
    func testAHugeMinimumRegretIsWrittenNotTrapped() throws {
        let testbed = try TestbedProcess(label: "hunt-huge-min-regret")
        defer { testbed.remove() }
        let outcome = try testbed.run("hunt", "--random", "2", "--rows", "20", "--min-regret", "1e19", "--out", "out")
        XCTAssertEqual(outcome.status, 0, outcome.err)
        let summary = try String(contentsOfFile: testbed.directory.appendingPathComponent("out/summary.csv").path, encoding: .utf8)
        XCTAssertTrue(summary.contains("1e+19"), summary)
    }

    /// `--out DIR` is taken before the first case runs: a non-empty DIR is refused as `run`
    /// and `merge` refuse it, and a path below a file fails at once, both exit 2 with nothing written.
    func testTheOutputDirectoryIsCheckedBeforeAnyCaseRuns() throws {
        let testbed = try TestbedProcess(label: "hunt-cli")
        defer { testbed.remove() }
        try testbed.write("ne2/regret.csv", "precious")
        try testbed.write("afile", "a file")
        let before = testbed.listing()
        for (out, message) in [("ne2", "'ne2' already exists and is not empty; choose another --out"), ("afile/x", "afile/x")] {
            let outcome = try testbed.run("hunt", "--random", "1", "--rows", "20", "--out", out, "--no-reduce")
            XCTAssertEqual(outcome.status, 2, "\(out): \(outcome.err)")
            XCTAssertTrue(outcome.err.hasPrefix("testbed: ") && outcome.err.contains(message), "\(out): \(outcome.err)")
            XCTAssertFalse(outcome.err.contains("queries"), "\(out): no case ran: \(outcome.err)")
            XCTAssertEqual(testbed.listing(), before, "\(out): nothing written")
        }
        XCTAssertEqual(try String(contentsOfFile: testbed.directory.appendingPathComponent("ne2/regret.csv").path, encoding: .utf8), "precious")
        let empty = try testbed.run("hunt", "--random", "1", "--rows", "20", "--out", "fresh", "--no-reduce")
        XCTAssertEqual(empty.status, 0, empty.err)
    }
}
