import FileSupport
import Foundation
import XCTest
@testable import Experiments

/// The report as a reader sees it: a real run (plots, plans, intervals) opened in headless
/// Chromium by `scripts/report/browser_check.py`, which checks for console errors, images
/// and plans that do not load, sorting, and that the summary table and a plot are on screen
/// and not blank (in a screenshot).
final class ReportBrowserTests: XCTestCase {
    func testTheReportOpensInABrowserWithEverythingLoadedAndSortable() throws {
        try ReportTools.needScipy()
        try ReportTools.needMatplotlib()
        try ReportTools.needChromium()
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        let config = try scratch.write(tinyConfig().replacingOccurrences(of: "repetitions: 2", with: "repetitions: 5") + "\nplans: true\n",
                                       to: "config.yaml")
        var invocation = RunInvocation(configPath: config, out: out)
        invocation.plots = true
        let console = CapturedConsole()
        XCTAssertEqual(invocation.execute(console: console.console), 0, console.err)
        XCTAssertTrue(FileSystem.isDirectory(out + "/plots"), "plots drawn: \(console.err)")

        let screenshot = scratch.path + "/report.png"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", ReportTools.root + "/scripts/report/browser_check.py", out + "/report.html", screenshot]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let started = Date()
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print("browser check took \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        XCTAssertEqual(process.terminationStatus, 0, text)

        struct Report: Decodable { let checks: [String: Bool] }
        let report = try JSONDecoder().decode(Report.self, from: Data(text.utf8))
        for name in ["no console errors", "every image loads", "every plan loads", "plan selects switch", "sorting works",
                     "summary table visible", "plot visible"] {
            XCTAssertEqual(report.checks[name], true, "\(name): \(text)")
        }
        XCTAssertGreaterThan(FileSystem.size(of: screenshot) ?? 0, 10_000, "a screenshot was written")
    }
}
