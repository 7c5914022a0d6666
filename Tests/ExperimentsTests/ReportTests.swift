import FileSupport
import Foundation
import XCTest
@testable import Experiments

/// `report.html` and the confidence-interval columns of `summary.csv`.
final class ReportTests: XCTestCase {
    /// A tiny run; `helpers` switches on the Python side (intervals and plots).
    private func run(in scratch: Scratch, helpers: Bool, config: String = tinyConfig()) throws -> String {
        let out = scratch.path + "/run"
        let path = try scratch.write(config, to: "config.yaml")
        var invocation = RunInvocation(configPath: path, out: out)
        invocation.plots = helpers
        let console = CapturedConsole()
        XCTAssertEqual(invocation.execute(console: console.console), 0, console.err)
        return out
    }

    func testEveryRunWritesAReportThatNeedsNothingFromTheNetwork() throws {
        let scratch = try Scratch()
        let out = try run(in: scratch, helpers: false, config: tinyConfig() + "\nplans: true\n")
        let html = try FileSystem.readText(out + "/report.html")
        for expected in ["<h1>tiny</h1>", "id=\"summary-table\"", "id=\"counters-table\"", "Results equal", "selected-document-parent",
                         "no-copying", "source_rows_read", "config.yaml as run", "git commit:", "id=\"passes-table\"", "orphan-collection",
                         "id=\"plan-data\"", "plans/selected-inline--all-on--40-final.svg"] {
            XCTAssertTrue(html.contains(expected), "report.html lacks \(expected)")
        }
        // Nothing outside the directory: every src and href is relative (or a fragment or data:).
        let links = html.components(separatedBy: "src=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
            + html.components(separatedBy: "href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertFalse(links.isEmpty)
        for link in links {
            XCTAssertFalse(link.contains(":") && !link.hasPrefix("data:"), "absolute link \(link)")
            XCTAssertFalse(link.hasPrefix("/") || link.hasPrefix(".."), "link leaves the directory: \(link)")
            if !link.hasPrefix("#") && !link.hasPrefix("data:") {
                XCTAssertTrue(FileSystem.exists(out + "/" + link), "\(link) does not exist")
            }
        }
    }

    /// The page embeds the run's own `environment.txt`; a link in its place named any file on
    /// the machine, and its text was copied into the page.
    func testALinkedOrHugeEnvironmentFileIsNotEmbedded() throws {
        let scratch = try Scratch()
        let out = try run(in: scratch, helpers: false)
        let secret = try scratch.write("secret-outside-the-run\n", to: "elsewhere.txt")
        FileSystem.remove(out + "/environment.txt")
        XCTAssertEqual(symlink(secret, out + "/environment.txt"), 0)
        XCTAssertEqual(ReportInvocation(directory: out).execute(console: CapturedConsole().console), 0)
        var html = try FileSystem.readText(out + "/report.html")
        XCTAssertFalse(html.contains("secret-outside-the-run"))
        XCTAssertTrue(html.contains("(environment.txt is a symbolic link; a report embeds only the run&#39;s own files)"))
        FileSystem.remove(out + "/environment.txt")
        try FileSystem.writeText(String(repeating: "x", count: (1 << 20) + 1), to: out + "/environment.txt")
        XCTAssertEqual(ReportInvocation(directory: out).execute(console: CapturedConsole().console), 0)
        html = try FileSystem.readText(out + "/report.html")
        XCTAssertTrue(html.contains("(environment.txt holds 1048577 bytes; a report embeds at most 1048576)"))
    }

    func testARunWithoutPassesCSVSaysSo() throws {
        let scratch = try Scratch()
        let out = try run(in: scratch, helpers: false)
        FileSystem.remove(out + "/passes.csv")
        XCTAssertEqual(ReportInvocation(directory: out).execute(console: CapturedConsole().console), 0)
        XCTAssertTrue(try FileSystem.readText(out + "/report.html").contains("This run has no passes.csv"))
    }

    /// The verdict comes from `timings.csv`, as `merge`'s does: a result hash edited there, or
    /// a row count under one hash, said "Results equal", exit 0.
    func testAResultThatDisagreesInTimingsIsAMismatchOnThePageAndExitOne() throws {
        for edit in ["hash", "rows"] {
            let scratch = try Scratch()
            let out = try run(in: scratch, helpers: false)
            var lines = try FileSystem.readText(out + "/timings.csv").components(separatedBy: "\n")
            let header = lines[0].components(separatedBy: ",")
            let column = try XCTUnwrap(header.firstIndex(of: edit == "hash" ? "result_hash" : "result_rows"))
            // The second repetition: summary.csv keeps the first's result, so it still agrees
            // with timings.csv (an edited first repetition is refused as the files disagreeing).
            var fields = Self.rawFields(lines[2])
            XCTAssertEqual(fields.count, header.count, lines[2])
            XCTAssertEqual(fields[try XCTUnwrap(header.firstIndex(of: "repetition"))], "2")
            fields[column] = edit == "hash" ? "0000000000000000" : String((Int(fields[column]) ?? 0) + 7)
            lines[2] = fields.joined(separator: ",")
            try FileSystem.writeText(lines.joined(separator: "\n"), to: out + "/timings.csv")
            let console = CapturedConsole()
            XCTAssertEqual(ReportInvocation(directory: out).execute(console: console.console), 1, edit)
            XCTAssertTrue(console.err.contains("1 result mismatch(es)"), console.err)
            let html = try FileSystem.readText(out + "/report.html")
            XCTAssertTrue(html.contains("Results differ"), edit)
            XCTAssertTrue(html.contains("RESULT MISMATCH"), edit)
        }
    }

    /// A CSV line's fields as written (quotes kept), split at the commas outside quotes.
    private static func rawFields(_ line: String) -> [String] {
        var fields = [""], quoted = false
        for character in line {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted { fields.append("") } else { fields[fields.count - 1].append(character) }
        }
        return fields
    }

    func testAMismatchAndPassTimingsAppearOnThePage() throws {
        let scratch = try Scratch()
        let out = try run(in: scratch, helpers: false)
        try FileSystem.writeText("selected-inline at 40 rows: all-on gave 1 row, sqlite 2\n", to: out + "/mismatches.txt")
        try FileSystem.writeText("""
            experiment,query,rows,backend,flags,repetition,kind,name,calls,us
            tiny,selected-inline,40,memory,x,1,pass,union-flattening.fold,1,12.5
            tiny,selected-inline,40,memory,x,2,pass,union-flattening.fold,1,14.5
            tiny,selected-inline,40,memory,x,1,hook,chooseInitiator,3,2.0

            """, to: out + "/passes.csv")
        XCTAssertEqual(ReportInvocation(directory: out).execute(console: CapturedConsole().console), 0)
        let html = try FileSystem.readText(out + "/report.html")
        XCTAssertTrue(html.contains("Results differ"))
        XCTAssertTrue(html.contains("all-on gave 1 row, sqlite 2"))
        XCTAssertTrue(html.contains("id=\"passes-table\""))
        XCTAssertTrue(html.contains("union-flattening.fold"))
        XCTAssertTrue(html.contains(">13.5<"), "median of 12.5 and 14.5")
        XCTAssertTrue(html.contains("chooseInitiator"))
    }

    /// A file the run wrote that cannot be read back refuses the report (exit 2, named at
    /// its line, report.html as it was), as merge and --resume refuse it; a file the run did
    /// not write (no passes.csv, no run.txt) is left out of the page.
    func testACorruptFileReadBackRefusesTheReportAndWritesNothing() throws {
        let scratch = try Scratch()
        let out = try run(in: scratch, helpers: false)
        let passes = try FileSystem.readText(out + "/passes.csv")
        var table = try CSVTable(parsing: passes, file: "p")
        table.rows[0][try XCTUnwrap(table.column("us"))] = "nan"
        let cases = [("passes.csv", "a,b\n1,2\n", "passes.csv:1: no column 'query'"), ("passes.csv", "garbage", "passes.csv:1"),
                     ("passes.csv", table.text, "passes.csv:2: column us holds 'nan'"), ("run.txt", "", "run.txt is not a run state file"),
                     // A garbage line is cut in the message, not echoed whole.
                     ("timings.csv", String(repeating: "z", count: 100_000),
                      "timings.csv:1: column 1 of the header is '\(String(repeating: "z", count: 80))…' (100000 characters)")]
        var longField = table
        longField.rows[0][try XCTUnwrap(table.column("us"))] = String(repeating: "9x", count: 50_000)
        let cut = ("passes.csv", longField.text, "passes.csv:2: column us holds '\(String(repeating: "9x", count: 40))…' (100000 characters)")
        for (name, text, expected) in cases + [cut] {
            let original = try FileSystem.readText(out + "/" + name)
            try FileSystem.writeText(text, to: out + "/" + name)
            let before = try snapshot(out)
            let console = CapturedConsole()
            XCTAssertEqual(ReportInvocation(directory: out).execute(console: console.console), 2, "\(name): \(text.prefix(100))")
            XCTAssertTrue(console.err.contains(expected), "\(expected) not in \(console.err.prefix(500))")
            XCTAssertLessThan(console.err.count, 400, "\(name): the message stays short")
            XCTAssertEqual(try snapshot(out), before, "\(name): the refused report wrote nothing")
            try FileSystem.writeText(original, to: out + "/" + name)
        }
        FileSystem.remove(out + "/run.txt")
        XCTAssertEqual(ReportInvocation(directory: out).execute(console: CapturedConsole().console), 0)
        XCTAssertTrue(try FileSystem.readText(out + "/report.html").contains("unknown (no run.txt)"))

        // compare RESULTS: a timings.csv that cannot be read is an error, not a note; none at all is a note.
        try FileSystem.writeText("garbage", to: out + "/timings.csv")
        XCTAssertThrowsError(try Comparison(results: out).render()) {
            XCTAssertTrue("\($0)".contains("timings.csv:1: column 1 of the header is 'garbage'"), "\($0)")
        }
        let console = CapturedConsole()
        XCTAssertEqual(Comparison(results: out).execute(console: console.console), 2)
        XCTAssertTrue(console.out.isEmpty, console.out)
        FileSystem.remove(out + "/timings.csv")
        XCTAssertTrue(try Comparison(results: out).render().contains("no confidence intervals: no timings.csv"))
    }

    /// `report` reads the summary against `timings.csv`: without it, where cells ran, an edited
    /// summary was shown as measured beside "No cells have run yet"; a complete run without
    /// `summary.csv` showed "No cells".
    func testAMissingResultFileIsRefused() throws {
        let scratch = try Scratch()
        let out = try run(in: scratch, helpers: false)
        let timings = try FileSystem.readText(out + "/timings.csv")
        FileSystem.remove(out + "/timings.csv")
        var console = CapturedConsole()
        XCTAssertEqual(ReportInvocation(directory: out).execute(console: console.console), 2)
        XCTAssertTrue(console.err.contains("has no timings.csv, though its run.txt says 12 cells ran"), console.err)
        try FileSystem.writeText(timings, to: out + "/timings.csv")
        FileSystem.remove(out + "/summary.csv")
        console = CapturedConsole()
        XCTAssertEqual(ReportInvocation(directory: out).execute(console: console.console), 2)
        XCTAssertTrue(console.err.contains("has no summary.csv, though its run.txt says the run is complete"), console.err)
    }

    /// A `summary.csv` baseline the config does not name was read by `report` (not by `compare`).
    func testASummaryBaselineTheConfigDoesNotNameIsRefused() throws {
        let scratch = try Scratch()
        let out = try run(in: scratch, helpers: false)
        var lines = try FileSystem.readText(out + "/summary.csv").components(separatedBy: "\n")
        let column = try XCTUnwrap(lines[0].components(separatedBy: ",").firstIndex(of: "baseline"))
        var fields = Self.rawFields(lines[1])
        fields[column] = "nosuch"
        lines[1] = fields.joined(separator: ",")
        try FileSystem.writeText(lines.joined(separator: "\n"), to: out + "/summary.csv")
        let console = CapturedConsole()
        XCTAssertEqual(ReportInvocation(directory: out).execute(console: console.console), 2)
        XCTAssertTrue(console.err.contains("summary.csv:2"), console.err)
        XCTAssertTrue(console.err.contains("the config's baseline is"), console.err)
    }

    func testTextFromTheRunIsEscaped() throws {
        let scratch = try Scratch()
        let config = tinyConfig().replacingOccurrences(of: "A tiny experiment for tests.", with: "<script>alert(1)</script> & more")
        let out = try run(in: scratch, helpers: false, config: config)
        let html = try FileSystem.readText(out + "/report.html")
        XCTAssertFalse(html.contains("<script>alert(1)"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"))
    }

    func testReportRefusesWhatIsNotARun() throws {
        let scratch = try Scratch()
        let console = CapturedConsole()
        XCTAssertEqual(ReportInvocation(directory: scratch.path + "/nothere").execute(console: console.console), 2)
        XCTAssertTrue(console.err.hasPrefix("testbed: report: "), console.err)
        let empty = CapturedConsole()
        XCTAssertEqual(ReportInvocation(directory: scratch.path).execute(console: empty.console), 2)
        XCTAssertTrue(empty.err.contains("has no config.yaml"), empty.err)
        XCTAssertFalse(FileSystem.exists(scratch.path + "/report.html"))
    }

    // MARK: intervals (need scipy)

    func testSummaryHasIntervalsThatReadBackAndBracketTheMedianWithinMinMax() throws {
        try ReportTools.needScipy()
        let scratch = try Scratch()
        let out = try run(in: scratch, helpers: true)
        let rows = try Summary.read(out + "/summary.csv", experiment: nil)
        XCTAssertEqual(rows.count, 12)
        for row in rows {
            let total = try XCTUnwrap(row.totalInterval, "\(row.cell)")
            XCTAssertLessThanOrEqual(row.total.minimum, total.low)
            XCTAssertLessThanOrEqual(total.low, total.high)
            XCTAssertLessThanOrEqual(total.high, row.total.maximum)
            if row.speedup != nil { XCTAssertNotNil(row.speedupInterval, "\(row.cell)") }
        }
        let text = try FileSystem.readText(out + "/summary.txt")
        XCTAssertTrue(text.contains("95% CI"))
        XCTAssertTrue(try FileSystem.readText(out + "/report.html").contains("scipy.stats.bootstrap"))
    }

    func testSummaryFilesWithoutIntervalsStillReadAndBadIntervalsAreRefusedAtTheirLine() throws {
        let scratch = try Scratch()
        let out = try run(in: scratch, helpers: false)
        let path = out + "/summary.csv"
        var table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        XCTAssertEqual(table.header, SummaryRow.header)
        // An older file: the columns before the intervals.
        let old = CSVTable(header: SummaryRow.headerWithoutIntervals,
                           rows: table.rows.map { Array($0.prefix(SummaryRow.headerWithoutIntervals.count)) })
        try FileSystem.writeText(old.text, to: path)
        XCTAssertEqual(try Summary.read(path, experiment: nil).count, 12)

        let low = try XCTUnwrap(table.column("total_us_median_ci_low")), high = try XCTUnwrap(table.column("total_us_median_ci_high"))
        for (lowValue, highValue, column) in [("5.0", "4.0", "total_us_median_ci_low"), ("5.0", "", "total_us_median_ci_high"),
                                              ("nan", "4.0", "total_us_median_ci_low"), ("-1.0", "4.0", "total_us_median_ci_low")] {
            table.rows[0][low] = lowValue
            table.rows[0][high] = highValue
            try FileSystem.writeText(table.text, to: path)
            XCTAssertThrowsError(try Summary.read(path, experiment: nil)) {
                XCTAssertTrue("\($0)".contains("summary.csv:2: column \(column)"), "\($0)")
            }
        }
        table.rows[0][low] = "4.0"
        table.rows[0][high] = "5.0"
        try FileSystem.writeText(table.text, to: path)
        XCTAssertEqual(try Summary.read(path, experiment: nil)[0].totalInterval, Interval(low: 4, high: 5))
    }

    func testReportOfAnOlderRunComputesTheIntervalsForThePage() throws {
        try ReportTools.needScipy()
        let scratch = try Scratch()
        let out = try run(in: scratch, helpers: false)
        FileSystem.remove(out + "/report.html")
        let before = try FileSystem.readText(out + "/summary.csv")
        XCTAssertEqual(ReportInvocation(directory: out).execute(console: CapturedConsole().console), 0)
        let html = try FileSystem.readText(out + "/report.html")
        XCTAssertTrue(html.contains(" – "), "intervals shown")
        XCTAssertEqual(try FileSystem.readText(out + "/summary.csv"), before, "summary.csv is left as it is")
    }
}
