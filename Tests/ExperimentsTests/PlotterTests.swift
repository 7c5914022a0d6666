import XCTest
@testable import Experiments

final class PlotterTests: XCTestCase {
    /// A plotting script's traceback (a full disk while saving) is said by its last line.
    func testAFailedPlotSaysTheTracebacksLastLine() {
        let traceback = """
            Traceback (most recent call last):
              File "plot.py", line 3, in <module>
            OSError: [Errno 28] No space left on device

            """
        XCTAssertEqual(Plotter.lastLine(of: traceback), "OSError: [Errno 28] No space left on device")
        XCTAssertEqual(Plotter.lastLine(of: "plain reason\n"), "plain reason")
    }
}
