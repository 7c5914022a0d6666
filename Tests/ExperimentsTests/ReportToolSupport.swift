import FileSupport
import Foundation
import XCTest
@testable import Experiments

/// The report's tools beyond Swift: python3 with numpy and scipy (intervals), matplotlib
/// (plots) and Chromium (the browser test). A machine without them skips those tests, except
/// under `scripts/test.sh` (what CI runs), which installs them and sets
/// TESTBED_REQUIRE_REPORT_TOOLS=1, so CI never skips them.
enum ReportTools {
    static var required: Bool { ProcessInfo.processInfo.environment["TESTBED_REQUIRE_REPORT_TOOLS"] == "1" }

    static func python(_ code: String) -> Bool {
        run(["python3", "-c", code]) == 0
    }

    static func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Skips the test when `available` is false, or fails it when the tools are required.
    static func need(_ what: String, _ available: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        guard !available else { return }
        let message = "\(what) is not installed; bash scripts/setup.sh --plotting --browser installs it"
        if required {
            XCTFail(message, file: file, line: line)
            throw XCTSkip(message)
        }
        throw XCTSkip(message)
    }

    // Each looked up once per test process (starting python3 with scipy takes seconds on a busy machine).
    private static let hasScipy = python("import numpy, scipy.stats")
    private static let hasMatplotlib = python("import matplotlib")
    private static let hasChromium = ["chromium", "chromium-browser", "google-chrome"].contains { run(["which", $0]) == 0 }

    static func needScipy() throws { try need("python3 with numpy and scipy", hasScipy) }
    static func needMatplotlib() throws { try need("matplotlib", hasMatplotlib) }
    static func needChromium() throws { try need("Chromium", hasChromium) }

    /// The checkout this test was built from (for scripts/).
    static var root: String {
        var path = #filePath
        for _ in 0..<3 { path = (path as NSString).deletingLastPathComponent }
        return path
    }
}

/// Seeded samples from known distributions (SplitMix64, then Box–Muller).
struct SampleSource {
    var state: UInt64

    mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return (Double(z >> 11) + 0.5) / Double(1 << 53)
    }

    mutating func normal() -> Double {
        sqrt(-2 * log(uniform())) * cos(2 * Double.pi * uniform())
    }

    /// Log-normal with median exp(mu).
    mutating func logNormal(mu: Double, sigma: Double) -> Double { exp(mu + sigma * normal()) }

    /// Exponential with rate 1: median ln 2.
    mutating func exponential() -> Double { -log(uniform()) }
}
