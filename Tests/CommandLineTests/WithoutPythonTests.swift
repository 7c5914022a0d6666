import Foundation
import XCTest

/// Without python3 (PATH without it) a run still completes: no plots, empty interval
/// columns, a note on stderr and on the page; `compare` falls back to min–max ranges.
final class WithoutPythonTests: XCTestCase {
    func testARunCompletesWithEmptyIntervalsAndSaysWhy() throws {
        let files = MergeCompareCases.directory("full", as: "full").filter { $0.key == "full/config.yaml" }
        try Battery.run(["run", "full/config.yaml", "--out", "out"], files: files.mapValues { Data($0.utf8) },
                        environment: ["PATH": "/nonexistent-\(UUID().uuidString)"]) { scratch, outcome, _ in
            XCTAssertEqual(outcome.status, 0, outcome.err)
            XCTAssertTrue(outcome.err.contains("testbed: confidence intervals left empty: python3 is not on PATH"), outcome.err)
            XCTAssertTrue(outcome.err.contains("plots skipped"), outcome.err)
            let out = scratch.appendingPathComponent("out")
            let summary = (try? String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8)) ?? ""
            let lines = summary.split(separator: "\n")
            XCTAssertTrue(lines.first?.hasSuffix("speedup,total_us_median_ci_low,total_us_median_ci_high,speedup_ci_low,speedup_ci_high") ?? false)
            XCTAssertGreaterThan(lines.count, 1)
            for line in lines.dropFirst() { XCTAssertTrue(line.hasSuffix(",,,,"), "no intervals: \(line)") }
            let report = (try? String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)) ?? ""
            XCTAssertTrue(report.contains("confidence intervals left empty"), "the page says so too")
        }
    }
}
