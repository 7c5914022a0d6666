import Foundation
import XCTest

/// A DuckDB helper that never answers: it writes its pid to `<script>.pid` (renamed into
/// place, so a reader never sees it half-written), then sleeps without reading its input.
/// A minute: long past the tests' waits, and short enough that a helper left running by a
/// regression (holding the test's pipes open) ends the test's wait soon after.
enum SleepingHelper {
    static let script = """
        import os, time
        open(__file__ + '.new', 'w').write(str(os.getpid()))
        os.rename(__file__ + '.new', __file__ + '.pid')
        time.sleep(60)

        """

    /// The pid the helper at `path` wrote.
    static func pid(of path: String) throws -> Int32 {
        try XCTUnwrap(Int32(String(contentsOfFile: path + ".pid", encoding: .utf8)), "no pid in \(path).pid")
    }

    /// Skips unless python3 imports duckdb: without it, the engine is refused as missing
    /// before any helper starts (`TESTBED_REQUIRE_ENGINES=1` makes that a failure).
    static func requireDuckDB() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import duckdb"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus != 0 else { return }
        if ProcessInfo.processInfo.environment["TESTBED_REQUIRE_ENGINES"] == "1" { XCTFail("python3 cannot import duckdb") }
        throw XCTSkip("python3 cannot import duckdb")
    }
}
