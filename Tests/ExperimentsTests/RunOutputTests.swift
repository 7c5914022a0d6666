import FileSupport
import XCTest
import QueryEngine
@testable import Experiments

/// The files of a tiny run: CSV schemas, one timings row per repetition, one summary row per cell.
final class RunOutputTests: XCTestCase {
    func testTimingsAndSummaryHaveTheContractColumnsAndOneRowPerRepetitionAndCell() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, console: console), 0, console.err)

        let timings = try CSVTable(parsing: try FileSystem.readText(out + "/timings.csv"), file: "timings.csv")
        let contract = ["experiment", "query", "shape", "rows", "seed", "backend", "engine", "flags", "repetition",
                        "plan_us", "optimize_us", "run_us", "total_us", "result_rows", "result_hash", "source_rows_read"]
        for column in contract + ["flagset"] + RunCounters.columnNames {
            XCTAssertNotNil(timings.column(column), "timings.csv lacks \(column)")
        }
        // 2 sizes × 2 queries × (2 flag sets + 1 baseline) = 12 cells, 2 repetitions each.
        XCTAssertEqual(timings.rows.count, 24)
        let records = timings.records
        XCTAssertEqual(Set(records.map { $0["engine"] ?? "" }), ["testbed", "sqlite"])
        for r in records where r["engine"] == "sqlite" {
            XCTAssertEqual(r["flags"], "")
            for counter in RunCounters.columnNames { XCTAssertEqual(r[counter], "", "sqlite leaves \(counter) empty") }
        }
        let canonical = try HeuristicCatalog.standard.preset("all-on").canonical
        XCTAssertTrue(records.contains { $0["flagset"] == "all-on" && $0["flags"] == canonical })
        for r in records where r["engine"] == "testbed" { XCTAssertFalse((r["source_rows_read"] ?? "").isEmpty) }
        for r in records {
            let phases = ["plan_us", "optimize_us", "run_us"].compactMap { Double(r[$0] ?? "") }
            XCTAssertEqual(phases.count, 3)
            XCTAssertEqual(Double(r["total_us"] ?? "") ?? -1, phases.reduce(0, +), accuracy: 0.11)
        }

        let summary = try CSVTable(parsing: try FileSystem.readText(out + "/summary.csv"), file: "summary.csv")
        XCTAssertEqual(summary.rows.count, 12)
        for column in ["total_us_median", "total_us_min", "total_us_max", "result_rows", "result_hash", "speedup"] {
            XCTAssertNotNil(summary.column(column), "summary.csv lacks \(column)")
        }
        // The baseline flag set's own speedup is 1.
        for r in summary.records where r["flagset"] == "no-copying" { XCTAssertEqual(r["speedup"], "1.00") }

        for file in ["config.yaml", "environment.txt", "run.txt", "summary.txt"] {
            XCTAssertTrue(FileSystem.exists(out + "/" + file), "missing \(file)")
        }
        XCTAssertEqual(try FileSystem.readText(out + "/config.yaml"), tinyConfig())
        XCTAssertEqual(try RunState.read(directory: out).status, .complete)
        XCTAssertTrue(console.out.contains("speedup"), console.out)
        XCTAssertTrue(console.out.contains("results equal"), console.out)
    }

    func testSummaryMediansComeFromTheRepetitions() throws {
        func record(_ flagset: String, _ repetition: Int, _ run: Double) -> TimingRecord {
            TimingRecord(
                experiment: "e", query: "q", shape: "documents", rows: 10, seed: 1, backend: "memory", engine: "testbed",
                flags: "", flagset: flagset, repetition: repetition, planMicroseconds: 1, optimizeMicroseconds: 0,
                runMicroseconds: run, resultRows: 1, resultHash: "h", counters: [5])
        }
        let records = [record("fast", 1, 9), record("fast", 2, 3), record("fast", 3, 5), record("fast", 4, 100),
                       record("slow", 1, 39), record("slow", 2, 29), record("slow", 3, 49)]
        let order = [Cell(query: "q", rows: 10, backend: "memory", engine: "testbed", flagset: "fast"),
                     Cell(query: "q", rows: 10, backend: "memory", engine: "testbed", flagset: "slow")]
        let rows = Summary.rows(records, order: order, baseline: "slow")
        XCTAssertEqual(rows.count, 2)
        // fast: totals 10, 4, 6, 101 → median (6 + 10) / 2 = 8, min 4, max 101.
        XCTAssertEqual(rows[0].total, Spread(median: 8, minimum: 4, maximum: 101))
        XCTAssertEqual(rows[0].run, Spread(median: 7, minimum: 3, maximum: 100))
        XCTAssertEqual(rows[0].repetitions, 4)
        // slow: totals 40, 30, 50 → median 40; speedup of fast = 40 / 8.
        XCTAssertEqual(rows[1].total.median, 40)
        XCTAssertEqual(rows[0].speedup ?? 0, 5, accuracy: 1e-9)
        XCTAssertEqual(rows[1].speedup ?? 0, 1, accuracy: 1e-9)
        XCTAssertEqual(rows[0].sourceRowsRead, 5)
    }

    func testSpreadStatistics() {
        XCTAssertEqual(Spread([3])?.median, 3)
        XCTAssertEqual(Spread([5, 1, 3]), Spread(median: 3, minimum: 1, maximum: 5))
        XCTAssertEqual(Spread([4, 1, 3, 2])?.median, 2.5)
        XCTAssertNil(Spread([]))
        XCTAssertTrue(Spread(median: 2, minimum: 1, maximum: 3).separated(from: Spread(median: 5, minimum: 4, maximum: 6)))
        XCTAssertFalse(Spread(median: 2, minimum: 1, maximum: 4).separated(from: Spread(median: 5, minimum: 4, maximum: 6)))
    }

    func testCSVRoundTripsQuotedFields() throws {
        let table = CSVTable(header: ["a", "b", "c"], rows: [["x,y", "say \"hi\"", ""], ["1", "", "line\nbreak"]])
        XCTAssertEqual(try CSVTable(parsing: table.text, file: "t.csv"), table)
    }

    func testCompareShowsRatiosAndMarksOnlySeparatedRanges() throws {
        let scratch = try Scratch()
        let summary = """
            experiment,query,shape,rows,seed,backend,engine,flags,flagset,repetitions,plan_us_median,plan_us_min,plan_us_max,optimize_us_median,optimize_us_min,optimize_us_max,run_us_median,run_us_min,run_us_max,total_us_median,total_us_min,total_us_max,result_rows,result_hash,source_rows_read,baseline,speedup
            e,q,documents,10,1,memory,testbed,,base,3,0,0,0,0,0,0,0,0,0,100.0,90.0,110.0,1,41159e7c45bb8ab7,1,base,1.00
            e,q,documents,10,1,memory,testbed,,overlapping,3,0,0,0,0,0,0,0,0,0,105.0,100.0,120.0,1,41159e7c45bb8ab7,1,base,0.95
            e,q,documents,10,1,memory,testbed,,fast,3,0,0,0,0,0,0,0,0,0,50.0,45.0,55.0,1,41159e7c45bb8ab7,1,base,2.00

            """
        _ = try scratch.write(summary, to: "summary.csv")
        let text = try Comparison(results: scratch.path).render()
        XCTAssertTrue(text.contains("base (baseline)"), text)
        XCTAssertTrue(text.contains("0.105 ms 1.05x  "), text)
        XCTAssertTrue(text.contains("0.050 ms 0.5x *"), text)
        XCTAssertEqual(try Comparison(results: scratch.path, baseline: "fast").render().contains("fast (baseline)"), true)
        let console = CapturedConsole()
        XCTAssertEqual(Comparison(results: scratch.path, baseline: "fasst").execute(console: console.console), 2)
        XCTAssertTrue(console.err.contains("did you mean 'fast'"), console.err)
    }

    func testCompareBaselineCanBeAFlagSetWrittenAsFlags() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out), 0)
        let allOn = try HeuristicCatalog.standard.preset("all-on").canonical
        XCTAssertTrue(try Comparison(results: out, baseline: allOn).render().contains("all-on (baseline)"))
        XCTAssertTrue(try Comparison(results: out, baseline: "subtree-copying=off").render().contains("no-copying (baseline)"))

        let noCopying = try HeuristicCatalog.standard.parseCanonical("subtree-copying=off").canonical
        let console = CapturedConsole()
        XCTAssertEqual(Comparison(results: out, baseline: "join-filter-threshold=7").execute(console: console.console), 2)
        let wanted = try HeuristicCatalog.standard.parseCanonical("join-filter-threshold=7").canonical
        XCTAssertEqual(console.err, "testbed: --baseline: no flag set in \(out)/summary.csv ran with \(wanted) "
            + "(there are: all-on (\(allOn)); no-copying (\(noCopying)))\n")

        let unknown = CapturedConsole()
        XCTAssertEqual(Comparison(results: out, baseline: "subtree-copyng=off").execute(console: unknown.console), 2)
        XCTAssertTrue(unknown.err.hasPrefix("testbed: --baseline 'subtree-copyng=off': unknown heuristic 'subtree-copyng'"), unknown.err)
    }

    /// `--out ''` used to write config.yaml, timings.csv, ... into the file-system root.
    func testAnEmptyOutIsRefusedBeforeAnythingIsWritten() throws {
        for out in ["", "  ", "/", "a\u{1}b"] {
            let scratch = try Scratch()
            let console = CapturedConsole()
            XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, console: console), 2, console.err)
            XCTAssertTrue(console.err.hasPrefix("testbed: --out: "), console.err)
            XCTAssertFalse(console.err.contains("\u{1}"), "control characters are escaped: \(console.err)")
            XCTAssertEqual(scratch.resultsEntries(), [])
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/config.yaml"))
    }

    func testMergeRefusesAnEmptyOut() throws {
        let scratch = try Scratch()
        let console = CapturedConsole()
        let dir = scratch.path + "/shard"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: dir, console: console), 0, console.err)
        var merge = MergeInvocation(directories: [dir], out: "")
        merge.plots = false
        let mergeConsole = CapturedConsole()
        XCTAssertEqual(merge.execute(console: mergeConsole.console), 2)
        XCTAssertTrue(mergeConsole.err.hasPrefix("testbed: --out: ''"), mergeConsole.err)
    }
}
