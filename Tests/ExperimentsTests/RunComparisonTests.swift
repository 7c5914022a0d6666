import FileSupport
import Foundation
import XCTest
@testable import Experiments

/// `compare RUN_A RUN_B`: two runs of one config, cell by cell. The measured times of a real
/// tiny run are replaced by controlled ones (plan and optimize 0, run = 100 + repetition µs),
/// so a test can state what moved without depending on machine noise.
final class RunComparisonTests: XCTestCase {
    override func setUpWithError() throws { try ReportTools.needScipy() }

    private let cell = (query: "selected-document-parent", rows: "120", flagset: "all-on")

    /// A tiny run with 6 repetitions, its times replaced; `edit` may change any row further.
    private func run(in scratch: Scratch, _ name: String, edit: (inout [String], [String]) -> Void = { _, _ in }) throws -> String {
        let out = scratch.path + "/" + name
        let config = tinyConfig().replacingOccurrences(of: "repetitions: 2", with: "repetitions: 6")
        XCTAssertEqual(try runConfig(config, in: scratch, out: out), 0)
        let path = out + "/timings.csv"
        var table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        let column = { (name: String) in table.column(name) ?? -1 }
        for i in table.rows.indices {
            let repetition = Double(table.rows[i][column("repetition")]) ?? 0
            table.rows[i][column("plan_us")] = "0.0"
            table.rows[i][column("optimize_us")] = "0.0"
            table.rows[i][column("run_us")] = TimingRecord.format(100 + repetition)
            table.rows[i][column("total_us")] = TimingRecord.format(100 + repetition)
            edit(&table.rows[i], table.header)
        }
        try FileSystem.writeText(table.text, to: path)
        // The summary from the same times, as the run would have written it.
        let records = try readTimings(path)
        let experiment = try ExperimentResolver.resolve(text: try FileSystem.readText(out + "/config.yaml"), file: out + "/config.yaml")
        try FileSystem.writeText(Summary.text(Summary.rows(records, order: experiment.cells, baseline: experiment.speedupBaseline)),
                                 to: out + "/summary.csv")
        return out
    }

    private func isTheCell(_ row: [String], _ header: [String]) -> Bool {
        func field(_ name: String) -> String { header.firstIndex(of: name).map { row[$0] } ?? "" }
        return field("query") == cell.query && field("rows") == cell.rows && field("flagset") == cell.flagset
    }

    func testIdenticalRunsShowNoRegression() throws {
        let scratch = try Scratch()
        let a = try run(in: scratch, "a"), b = try run(in: scratch, "b")
        let result = try RunComparison(runA: a, runB: b).compare()
        XCTAssertTrue(result.regressions.isEmpty, result.text)
        XCTAssertTrue(result.counterChanges.isEmpty, result.text)
        XCTAssertFalse(result.failed)
        XCTAssertTrue(result.text.contains("verdict: no regression"), result.text)
        let console = CapturedConsole()
        XCTAssertEqual(RunComparison(runA: a, runB: b).execute(console: console.console), 0)
    }

    func testACellMadeTwiceAsSlowIsFlaggedAndExitsOne() throws {
        let scratch = try Scratch()
        let a = try run(in: scratch, "a")
        let b = try run(in: scratch, "b") { row, header in
            guard self.isTheCell(row, header), let run = header.firstIndex(of: "run_us"), let total = header.firstIndex(of: "total_us"),
                  let value = Double(row[run]) else { return }
            row[run] = TimingRecord.format(2 * value)
            row[total] = TimingRecord.format(2 * value)
        }
        let result = try RunComparison(runA: a, runB: b).compare()
        XCTAssertEqual(result.regressions, ["\(cell.query) \(cell.rows) \(cell.flagset)"], result.text)
        XCTAssertTrue(result.text.contains("REGRESSION"), result.text)
        XCTAssertTrue(result.text.contains("2x"), result.text)
        let console = CapturedConsole()
        XCTAssertEqual(RunComparison(runA: a, runB: b).execute(console: console.console), 1)
        // The same slowdown is within a tolerance of 150%.
        XCTAssertTrue(try RunComparison(runA: a, runB: b, tolerance: 1.5).compare().regressions.isEmpty)
        // And B against A is faster, not a regression.
        let reverse = try RunComparison(runA: b, runB: a).compare()
        XCTAssertFalse(reverse.failed, reverse.text)
        XCTAssertTrue(reverse.text.contains("faster"), reverse.text)
    }

    func testACounterChangeIsReportedAsAnExactDifference() throws {
        let scratch = try Scratch()
        let a = try run(in: scratch, "a")
        let b = try run(in: scratch, "b") { row, header in
            guard self.isTheCell(row, header), let read = header.firstIndex(of: "source_rows_read"), let value = Int(row[read]) else { return }
            row[read] = String(value + 7)
        }
        let result = try RunComparison(runA: a, runB: b).compare()
        XCTAssertEqual(result.counterChanges, ["\(cell.query) \(cell.rows) \(cell.flagset) source_rows_read"], result.text)
        XCTAssertTrue(result.text.contains("+7"), result.text)
        XCTAssertTrue(result.regressions.isEmpty, "a counter change alone is no time regression: \(result.text)")
    }

    func testAChangedResultFails() throws {
        let scratch = try Scratch()
        let a = try run(in: scratch, "a")
        let b = try run(in: scratch, "b") { row, header in
            guard self.isTheCell(row, header), let hash = header.firstIndex(of: "result_hash") else { return }
            row[hash] = String(repeating: "0", count: row[hash].count)
        }
        let result = try RunComparison(runA: a, runB: b).compare()
        XCTAssertEqual(result.resultChanges.count, 1, result.text)
        XCTAssertTrue(result.failed)
    }

    /// `compare RESULTS` within one run: `*` only where the ratio's interval excludes 1, and
    /// how many repetitions would tell where it does not.
    func testOneRunMarksOnlyRatiosWhoseIntervalExcludesOne() throws {
        let scratch = try Scratch()
        let out = try run(in: scratch, "a") { row, header in
            guard self.isTheCell(row, header), let run = header.firstIndex(of: "run_us"), let total = header.firstIndex(of: "total_us"),
                  let value = Double(row[run]) else { return }
            row[run] = TimingRecord.format(2 * value)
            row[total] = TimingRecord.format(2 * value)
        }
        // Every other cell has the same times as its baseline: ratio 1, interval around 1, no mark.
        let text = try Comparison(results: out, baseline: "no-copying").render()
        let line = String(try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("\(cell.query) ") && $0.contains(" \(cell.rows) ") }))
        // e.g. `0.207 ms 2x [1.94–2.05] *` (the interval's digits depend on scipy's resampling).
        let doubled = try XCTUnwrap(line.components(separatedBy: " 2x [").dropFirst().first, "the doubled all-on cell: \(line)")
        let bounds = doubled.prefix { $0 != "]" }.components(separatedBy: "–").compactMap(Double.init)
        XCTAssertEqual(bounds.count, 2, line)
        XCTAssertTrue(bounds.count == 2 && bounds[0] > 1.5 && bounds[0] < 2 && bounds[1] > 2 && bounds[1] < 2.5, line)
        XCTAssertTrue(doubled.contains("] *"), line)
        XCTAssertEqual(text.filter { $0 == "*" }.count, 2, "one mark, and the legend's: \(text)")
        XCTAssertTrue(text.contains("bootstrap confidence interval of the ratio"), text)
    }

    func testRunsOfDifferentExperimentsAndBadTolerancesAreRefused() throws {
        let scratch = try Scratch()
        let a = try run(in: scratch, "a")
        let other = scratch.path + "/other"
        XCTAssertEqual(try runConfig(tinyConfig(name: "other"), in: scratch, out: other), 0)
        let console = CapturedConsole()
        XCTAssertEqual(RunComparison(runA: a, runB: other).execute(console: console.console), 2)
        XCTAssertTrue(console.err.hasPrefix("testbed: "), console.err)
        XCTAssertTrue(console.err.contains("compare two runs of one config"), console.err)
        // One config's name over another dataset seed: its cells would pair with A's, and every
        // result would read as changed (exit 1).
        let reseeded = scratch.path + "/reseeded"
        XCTAssertEqual(try runConfig(tinyConfig().replacingOccurrences(of: "seed: 7", with: "seed: 8"), in: scratch, out: reseeded), 0)
        let seeds = CapturedConsole()
        XCTAssertEqual(RunComparison(runA: a, runB: reseeded).execute(console: seeds.console), 2)
        XCTAssertTrue(seeds.err.contains("ran on documents seed 7 params roots=0.1"), seeds.err)
        XCTAssertTrue(seeds.err.contains("on documents seed 8 params roots=0.1; their results are of different data"), seeds.err)
        let bad = CapturedConsole()
        XCTAssertEqual(RunComparison(runA: a, runB: a, tolerance: -1).execute(console: bad.console), 2)
        XCTAssertTrue(bad.err.contains("--tolerance"), bad.err)
        let missing = CapturedConsole()
        XCTAssertEqual(RunComparison(runA: a, runB: scratch.path + "/nothere").execute(console: missing.console), 2)
        XCTAssertTrue(missing.err.contains("RUN_B"), missing.err)
    }
}
