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
}
