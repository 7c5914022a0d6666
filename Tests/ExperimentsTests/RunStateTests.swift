import FileSupport
import XCTest
@testable import Experiments

/// `run.txt` is read strictly, and a resume does not take its word over `timings.csv`.
final class RunStateTests: XCTestCase {
    private func state(_ text: String) -> String {
        do {
            let scratch = try Scratch()
            _ = try scratch.write(text, to: RunState.fileName)
            let read = try RunState.read(directory: scratch.path)
            return "\(read.status.rawValue) \(read.cellsDone)/\(read.cellsTotal)"
        } catch {
            return "\(error)".replacingOccurrences(of: NSTemporaryDirectory(), with: "")
                .replacingOccurrences(of: #"experiments-tests-[0-9A-F-]+/"#, with: "", options: .regularExpression)
        }
    }

    func testCellsUnknownAndRepeatedKeysAreRefusedAtTheirLine() {
        let head = "experiment: tiny\nshard: 1/1\nstatus: complete\n"
        XCTAssertEqual(state(head + "cells: 4/4\n"), "complete 4/4")
        for cells in ["x", "-1/4", "5/4", "4", "4/4/4", "/4"] {
            XCTAssertEqual(state(head + "cells: \(cells)\n"),
                           "run.txt:4: cells '\(cells)' is not DONE/TOTAL with 0 <= DONE <= TOTAL", cells)
        }
        // The shard line is blamed, not a `--shard` option `merge` does not even have.
        for shard in ["1/x", "0/1", "2/1", "1/99999999999999999999"] {
            XCTAssertEqual(state("experiment: tiny\nshard: \(shard)\nstatus: complete\ncells: 4/4\n"),
                           "run.txt:2: shard '\(shard)': expected K/N in decimal digits with 1 <= K <= N, e.g. 2/4", shard)
        }
        XCTAssertEqual(state("experiment: \nshard: 1/1\nstatus: complete\ncells: 4/4\n"), "run.txt:1: the experiment's name is empty")
        XCTAssertEqual(state(head + "cells: 4/4\nexperiment: other\n"), "run.txt:5: experiment is given twice")
        XCTAssertEqual(state(head + "colour: blue\n"),
                       "run.txt:4: unknown key 'colour'; a run state holds experiment, shard, status and cells")
        XCTAssertEqual(state(head + "cells 4/4\n"), "run.txt:4: 'cells 4/4' is not KEY: VALUE")
    }

    /// `status: complete` with `timings.csv` emptied was "already complete, nothing changed".
    func testAResumeOfACompleteRunWhoseTimingsLostCellsIsRefused() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out), 0)
        let timings = out + "/timings.csv"
        let header = try XCTUnwrap(try FileSystem.readText(timings).split(separator: "\n").first)
        try FileSystem.writeText(header + "\n", to: timings)
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: true, console: console), 2)
        XCTAssertTrue(console.err.contains("says complete, but timings.csv holds 0 of the 12 cells"), console.err)
    }
}
