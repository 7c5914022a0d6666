import XCTest
@testable import Verification

/// The cases `testbed hunt` found and the project kept (`Results/hunt-corpus/repro/`): each
/// was written because `all-on` read at least its min regret times the best run's rows, and
/// each was fixed. Replayed here under the default grid, so a change that brings one back
/// fails, whatever heuristic it touches.
final class HuntReproTests: XCTestCase {
    func testEveryKeptReproStaysBelowItsRegret() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = root.appendingPathComponent("Results/hunt-corpus/repro").path
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("hunt-") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 14, "the kept repros are missing")
        let grid = try HuntGrid()
        let measurer = RegretMeasurer(grid: grid)
        for name in names {
            let contents = try RegretRepro.read(directory + "/" + name)
            let regret = try measurer.measure(contents.graph)
            let chosen = try XCTUnwrap(grid.index(of: contents.flagSet), name)
            XCTAssertLessThan(regret.regret(regret.runs[chosen]), contents.minRegret, name)
            XCTAssertEqual(regret.disagreements, 0, "\(name): flag sets disagree on a result")
        }
    }

    /// `regret.txt` is read as strictly as `manifest.txt`: a key given twice, or a threshold
    /// that is not finite, was accepted (the last value won; `1e999` read as infinity).
    func testRegretFileIsReadStrictly() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let kept = root.appendingPathComponent("Results/hunt-corpus/repro/hunt-s105-case1968").path
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("regret-strict-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: kept, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        XCTAssertEqual(try RegretRepro.read(copy).minRegret, 2.0)
        for (text, expected) in [("flagset: all-on\nmin-regret: 1e999\n", "regret.txt:2: min-regret is not a finite number >= 1"),
                                 ("flagset: all-on\nmin-regret: 2\nmin-regret: 3\n", "regret.txt:3: min-regret is given twice"),
                                 ("flagset: all-on\nflagset: seed\nmin-regret: 2\n", "regret.txt:2: flagset is given twice")] {
            try text.write(toFile: copy + "/regret.txt", atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try RegretRepro.read(copy), text) { XCTAssertTrue("\($0)".hasSuffix(expected), "\($0)") }
        }
    }
}
