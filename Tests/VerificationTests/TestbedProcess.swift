import Foundation
import XCTest

/// Runs the `testbed` executable built beside the test bundle, for tests whose subject is
/// the exit code and the words on standard error.
struct TestbedProcess {
    struct Outcome {
        let status: Int32
        let out: String
        let err: String
    }

    /// The `testbed` executable beside the test bundle (on Linux the bundle is the products
    /// directory itself, on macOS an `.xctest` inside it).
    static func executable() throws -> URL {
        let bundle = Bundle(for: BundleMarker.self).bundleURL
        for directory in [bundle, bundle.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("testbed")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        // A missing executable is a broken build, not an absent optional tool: fail, never skip.
        XCTFail("no testbed executable beside \(bundle.path); build the package first (swift build --build-tests)")
        throw XCTSkip("no testbed executable")
    }

    /// The repository's query catalog.
    static var catalog: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Workloads/queries").path
    }

    /// The directory the process runs in (relative paths in arguments resolve here).
    let directory: URL

    /// A fresh empty working directory; `remove()` deletes it.
    init(label: String = "testbed-cli") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(label + "-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Writes `contents` (bytes as given) to `name` in the working directory; returns its path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        try write(name, bytes: Data(contents.utf8))
    }

    @discardableResult
    func write(_ name: String, bytes: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: url)
        return url.path
    }

    /// Every path under the working directory, relative to it, sorted.
    func listing() -> [String] {
        let base = directory.resolvingSymlinksInPath().path
        let found = FileManager.default.enumerator(atPath: base)?.allObjects as? [String] ?? []
        return found.sorted()
    }

    func run(_ arguments: String..., environment: [String: String] = [:]) throws -> Outcome {
        try run(arguments, environment: environment)
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "TESTBED_QUERIES")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes concurrently so neither fills while the other is drained.
        let group = DispatchGroup()
        let errData = DataBox()
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async(group: group) { errData.data = errHandle.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                       err: String(decoding: errData.data, as: UTF8.self))
    }
}

private final class BundleMarker {}

/// Standard error's bytes, filled by the reader thread before `group.wait()` returns.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
