import Foundation
import XCTest

/// Runs the repository's scripts and the built `testbed` for the scheduler tests.
enum Sweep {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/sweep-tiny.yaml").path

    /// These tests need Linux, root and the scheduler packages (scripts/sweep.sh installs the
    /// packages). They fail rather than skip when something is missing, so CI cannot pass
    /// without running them; set QUERYTESTBED_SKIP_SCHEDULER_TESTS=1 to skip them on purpose
    /// (e.g. on a Mac, or as a user without root).
    static func requireSchedulerHost() throws {
        if ProcessInfo.processInfo.environment["QUERYTESTBED_SKIP_SCHEDULER_TESTS"] == "1" {
            throw XCTSkip("QUERYTESTBED_SKIP_SCHEDULER_TESTS=1")
        }
        #if !os(Linux)
        XCTFail("the scheduler tests need Linux (set QUERYTESTBED_SKIP_SCHEDULER_TESTS=1 to skip them)")
        throw XCTSkip("not Linux")
        #else
        if getuid() != 0 {
            XCTFail("the scheduler tests need root (Slurm's slurmd, network namespaces); "
                + "set QUERYTESTBED_SKIP_SCHEDULER_TESTS=1 to skip them")
            throw XCTSkip("not root")
        }
        #endif
    }

    /// Holds an exclusive lock for the rest of the calling test, so that no two scheduler tests
    /// overlap when `swift test --parallel` runs test methods in several processes: they start
    /// host-wide daemons (Slurm, sshd in network namespaces) and check that none is left.
    static func exclusive() throws -> SchedulerLock { try SchedulerLock() }

    static func executable() throws -> String {
        let bundle = Bundle(for: SweepToken.self).bundleURL
        for directory in [bundle, bundle.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("testbed")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        }
        XCTFail("no testbed executable beside \(bundle.path); build the package first (swift build --build-tests)")
        throw XCTSkip("no testbed executable")
    }

    struct Result {
        var status: Int32
        var out: String
        var err: String
    }

    /// Runs `arguments` (the first is looked up on PATH) in `directory`, output kept in files
    /// so a chatty command cannot block on a full pipe.
    @discardableResult
    static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let outFile = directory + "/.out-\(UUID().uuidString)", errFile = directory + "/.err-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: outFile, contents: nil),
              FileManager.default.createFile(atPath: errFile, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: directory])
        }
        defer {
            try? FileManager.default.removeItem(atPath: outFile)
            try? FileManager.default.removeItem(atPath: errFile)
        }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outFile))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus, out: try String(contentsOfFile: outFile, encoding: .utf8),
                      err: try String(contentsOfFile: errFile, encoding: .utf8))
    }

    static func script(_ path: String) -> String { repository.appendingPathComponent(path).path }

    /// A fresh temporary directory (removed by the caller's defer).
    static func scratch(_ tag: String) throws -> String {
        let path = NSTemporaryDirectory() + "sweep-\(tag)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs the config unsharded into `directory/whole`, the reference a sweep must equal.
    static func unsharded(in directory: String) throws -> String {
        let out = directory + "/whole"
        let result = try run([try executable(), "run", config, "--out", out], in: directory)
        XCTAssertEqual(result.status, 0, result.err)
        return out
    }

    /// A CSV file's rows without the measured-time columns (and `speedup` and its interval, ratios of times).
    static func deterministicColumns(_ path: String) throws -> [[String]] {
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { fields(String($0)) }
        guard let header = rows.first else { return [] }
        let timed = ["plan_us", "optimize_us", "run_us", "total_us"]
        let keep = header.indices.filter { index in
            !timed.contains { header[index].hasPrefix($0) } && !header[index].hasPrefix("speedup")
        }
        return rows.map { row in keep.map { $0 < row.count ? row[$0] : "<missing>" } }
    }

    /// The fields of one CSV line (double-quoted fields may hold commas and doubled quotes).
    static func fields(_ line: String) -> [String] {
        var out: [String] = [], field = "", quoted = false
        var characters = Array(line)[...]
        while let c = characters.popFirst() {
            if quoted {
                if c == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                out.append(field)
                field = ""
            } else {
                field.append(c)
            }
        }
        out.append(field)
        return out
    }

    /// The merged result equals the unsharded run on every column but the measured times.
    static func assertEqualResults(_ merged: String, _ whole: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for name in ["timings.csv", "summary.csv"] {
            let a = try deterministicColumns(merged + "/" + name), b = try deterministicColumns(whole + "/" + name)
            XCTAssertEqual(a.count, b.count, name, file: file, line: line)
            XCTAssertGreaterThan(a.count, 12, "\(name) holds every cell", file: file, line: line)
            XCTAssertEqual(a, b, name, file: file, line: line)
        }
        XCTAssertTrue(try String(contentsOfFile: merged + "/run.txt", encoding: .utf8).contains("status: complete"),
                      file: file, line: line)
    }

    /// `key: value` lines of a run directory's environment.txt, first value of each key.
    static func environment(_ directory: String) throws -> [String: String] {
        var values: [String: String] = [:]
        for line in try String(contentsOfFile: directory + "/environment.txt", encoding: .utf8).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon])
            if values[key] == nil {
                values[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return values
    }

    /// Processes whose name is exactly `name` (pgrep -x), as "pid command" lines.
    static func processes(named name: String) throws -> String {
        try run(["pgrep", "-a", "-x", name], in: NSTemporaryDirectory()).out
    }
}

final class SweepToken {}

/// An `flock` on a file in the temporary directory, released when the value is dropped.
final class SchedulerLock {
    private let descriptor: Int32

    init() throws {
        let path = NSTemporaryDirectory() + "querytestbed-scheduler-tests.lock"
        descriptor = open(path, O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path])
            }
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
