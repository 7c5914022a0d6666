import FileSupport
import XCTest
@testable import Experiments

/// `summary.csv` must say what `timings.csv` gives, and `compare` reads every repetition's
/// result: hand-edited figures were shown as measured (the thirty-fourth session's probe).
final class EditedResultsTests: XCTestCase {
    private func run(_ scratch: Scratch, _ name: String) throws -> String {
        let out = scratch.path + "/" + name
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out), 0)
        return out
    }

    /// Sets `column` of data line `line` (1 = the first row after the header) of a CSV file.
    private func edit(_ path: String, line: Int, _ column: String, _ value: String) throws {
        var table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        let index = try XCTUnwrap(table.header.firstIndex(of: column), column)
        var rows = table.rows
        rows[line - 1][index] = value
        table = CSVTable(header: table.header, rows: rows)
        try FileSystem.writeTextAtomically(table.text, to: path)
    }

    func testASummaryFigureThatTheTimingsDoNotGiveIsRefused() throws {
        let scratch = try Scratch()
        let out = try run(scratch, "run")
        let summary = out + "/summary.csv"
        let original = try FileSystem.readText(summary)
        for (column, value) in [("speedup", "123.00"), ("result_hash", "0000000000000000"), ("result_rows", "7"),
                                ("source_rows_read", "99"), ("plan_us_max", "9999999.0")] {
            try edit(summary, line: 2, column, value)
            let console = CapturedConsole()
            XCTAssertEqual(Comparison(results: out).execute(console: console.console), 2, column)
            XCTAssertTrue(console.err.contains("summary.csv:3: \(column) is '\(value)', but"), console.err)
            XCTAssertTrue(console.err.contains("the two files disagree"), console.err)
            XCTAssertEqual(ReportInvocation(directory: out).execute(console: CapturedConsole().console), 2, column)
            try FileSystem.writeTextAtomically(original, to: summary)
        }
        XCTAssertEqual(Comparison(results: out).execute(console: CapturedConsole().console), 0, "the run as written")
    }

    func testCompareReadsEveryRepetitionsResult() throws {
        let scratch = try Scratch()
        let a = try run(scratch, "a"), b = try run(scratch, "b")
        // Results only: two runs' times may differ beyond the tolerance on a loaded machine
        // (this assertion once failed in CI beside two hunts), which is not what is tested.
        let same = try RunComparison(runA: a, runB: b).compare()
        XCTAssertEqual(same.resultChanges.count, 0, same.text)
        XCTAssertEqual(same.disagreements.count, 0, same.text)
        // Line 2 is the first cell's second repetition; summary.csv keeps the first's result.
        try edit(b + "/timings.csv", line: 2, "result_hash", "0000000000000000")
        let result = try RunComparison(runA: a, runB: b).compare()
        XCTAssertTrue(result.failed)
        XCTAssertEqual(result.resultChanges.count, 1, result.text)
        XCTAssertEqual(result.disagreements.count, 1, result.text)
        XCTAssertTrue(result.text.contains("verdict: results disagree within a run"), result.text)

        let console = CapturedConsole()
        XCTAssertEqual(Comparison(results: b).execute(console: console.console), 1, "one run's own cells disagree")
        XCTAssertTrue(console.out.contains("RESULTS DISAGREE"), console.out)
        XCTAssertEqual(Comparison(results: a).execute(console: CapturedConsole().console), 0)
    }
}
