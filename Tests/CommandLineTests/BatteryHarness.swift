import Foundation
import XCTest

/// One malformed input: the fixture files written into a fresh working directory, the
/// `testbed` arguments, and the fragments stderr must contain (the location: file:line,
/// key path or option name). Every case expects exit 2, stderr starting `testbed:`, and
/// no change on disk.
struct BatteryCase {
    let name: String
    let arguments: [String]
    let files: [String: Data]
    let expect: [String]
    /// Environment variables set for this case on top of the harness's.
    var environment: [String: String] = [:]

    init(_ name: String, _ arguments: [String], files: [String: String] = [:], raw: [String: Data] = [:],
         expect: [String]) {
        self.name = name
        self.arguments = arguments
        var all = raw
        for (path, text) in files { all[path] = Data(text.utf8) }
        self.files = all
        self.expect = expect
    }
}

/// An input that must be accepted (exit 0), e.g. CRLF or BOM query files.
extension BatteryCase {
    /// This case on a machine with `bytes` of available memory (`TESTBED_AVAILABLE_MEMORY`):
    /// for the cases that must not fit, whatever the estimate's model of the day.
    func withAvailableMemory(_ bytes: Int) -> BatteryCase {
        var copy = self
        copy.environment["TESTBED_AVAILABLE_MEMORY"] = String(bytes)
        return copy
    }
}

struct AcceptedCase {
    let name: String
    let arguments: [String]
    let files: [String: Data]
    /// Seconds the command may take; a run that does real work needs more than a refusal.
    var timeout: Double = Battery.timeout
}

struct BatteryOutcome {
    let status: Int32
    let out: String
    let err: String
}

/// Runs the built `testbed` in a fresh directory and checks what a case expects.
enum Battery {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func executable() throws -> URL {
        let bundle = Bundle(for: BatteryToken.self).bundleURL
        for directory in [bundle, bundle.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("testbed")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        // A missing executable is a broken build, not an absent optional tool: fail, never skip.
        XCTFail("no testbed executable beside \(bundle.path); build the package first (swift build --build-tests)")
        throw XCTSkip("no testbed executable")
    }

    /// The testbed started through `env --default-signal`, for tests that signal it: a test
    /// runner started in the background by a shell has SIGINT ignored (and a runtime may
    /// ignore SIGPIPE), a child inherits that, and the testbed rightly leaves an ignored
    /// signal alone.
    static func signalledCommand(_ arguments: [String]) throws -> (executable: URL, arguments: [String]) {
        (URL(fileURLWithPath: "/usr/bin/env"), ["--default-signal=INT,TERM,HUP,PIPE", try executable().path] + arguments)
    }

    /// name -> (size, FNV-1a of the contents) for every entry under `root`, recursively.
    static func snapshot(_ root: URL) -> [String: String] {
        var result: [String: String] = [:]
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: root.path) else { return result }
        while let relative = walker.nextObject() as? String {
            let path = root.appendingPathComponent(relative).path
            var isDirectory: ObjCBool = false
            _ = manager.fileExists(atPath: path, isDirectory: &isDirectory)
            if isDirectory.boolValue { result[relative] = "dir"; continue }
            let data = manager.contents(atPath: path) ?? Data()
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            result[relative] = "\(data.count) \(String(hash, radix: 16))"
        }
        return result
    }

    /// What `run`/`merge` write into their output directory (removed from `/` if a case put them there),
    /// besides the plan files `plan` writes for the battery's query `q`.
    static let runOutputNames: Set<String> = ["config.yaml", "inputs.txt", "environment.txt", "run.txt", "summary.csv", "summary.txt",
                                               "timings.csv", "plans", "plots", "run.lock", "lock", "report.html"]

    static func rootEntries() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: "/")) ?? [])
    }

    /// Seconds a case may run; every refusal takes well under one second.
    static let timeout: Double = 15

    static func run(_ arguments: [String], files: [String: Data], environment: [String: String] = [:],
                    timeout: Double = Battery.timeout, body: (URL, BatteryOutcome, [String: String]) -> Void) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("battery-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (path, data) in files {
            let url = scratch.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let before = snapshot(scratch)
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments.map { $0.replacingOccurrences(of: "@DIR@", with: scratch.path) }
        process.currentDirectoryURL = scratch
        var env = ProcessInfo.processInfo.environment
        env["TESTBED_QUERIES"] = repository.appendingPathComponent("Workloads/queries").path
        // The same memory on every machine, so a size refused here is refused everywhere
        // (between the 22 GB of generating 100M shuffled documents and the 48 GB of loading them).
        env["TESTBED_AVAILABLE_MEMORY"] = "32000000000"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes concurrently so neither fills up.
        let group = DispatchGroup()
        let errBox = DataBox()
        group.enter()
        DispatchQueue.global().async {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        // A case that runs instead of being refused (e.g. 10^12 repetitions before the fix)
        // is stopped after `timeout` seconds and reported as exit 124.
        let deadline = DispatchTime.now() + timeout
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: deadline, execute: watchdog)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        watchdog.cancel()
        var status = process.terminationStatus
        if process.terminationReason == .uncaughtSignal { status = status == SIGTERM ? 124 : 128 + status }
        body(scratch, BatteryOutcome(status: status, out: String(decoding: outData, as: UTF8.self),
                                     err: String(decoding: errBox.data, as: UTF8.self)), before)
    }

    /// Runs every case and returns one line per failing case (empty when all held).
    static func check(_ cases: [BatteryCase]) throws -> [String] {
        var failures: [String] = []
        let rootBefore = rootEntries()
        for item in cases {
            try run(item.arguments, files: item.files, environment: item.environment) { scratch, outcome, before in
                var problems: [String] = []
                if outcome.status != 2 { problems.append("exit \(outcome.status), expected 2") }
                if !outcome.err.hasPrefix("testbed:") { problems.append("stderr does not start with 'testbed:'") }
                for fragment in item.expect where !outcome.err.contains(fragment) {
                    problems.append("stderr lacks \(String(reflecting: fragment))")
                }
                let after = snapshot(scratch)
                if after != before {
                    let added = Set(after.keys).subtracting(before.keys).sorted()
                    let changed = before.keys.filter { after[$0] != nil && after[$0] != before[$0] }.sorted()
                    let removed = Set(before.keys).subtracting(after.keys).sorted()
                    problems.append("disk changed: added \(added.prefix(5)) changed \(changed.prefix(5)) removed \(removed.prefix(5))")
                }
                let gained = rootEntries().subtracting(rootBefore)
                if !gained.isEmpty {
                    problems.append("'/' gained \(gained.sorted())")
                    // Undo what the unfixed binary wrote there: only names a run or merge writes.
                    for name in gained where runOutputNames.contains(name)
                        || (name.hasPrefix("q-") && (name.hasSuffix(".dot") || name.hasSuffix(".svg"))) {
                        try? FileManager.default.removeItem(atPath: "/" + name)
                    }
                }
                if !problems.isEmpty {
                    let firstLine = outcome.err.split(separator: "\n").first.map(String.init) ?? ""
                    failures.append("[\(item.name)] testbed \(item.arguments.joined(separator: " ")): "
                        + problems.joined(separator: "; ") + " | stderr: \(String(firstLine.prefix(240)).debugDescription)")
                }
            }
        }
        return failures
    }

    static func checkAccepted(_ cases: [AcceptedCase]) throws -> [String] {
        var failures: [String] = []
        for item in cases {
            try run(item.arguments, files: item.files, timeout: item.timeout) { _, outcome, _ in
                if outcome.status != 0 {
                    let firstLine = outcome.err.split(separator: "\n").first.map(String.init) ?? ""
                    failures.append("[\(item.name)] testbed \(item.arguments.joined(separator: " ")): exit \(outcome.status), "
                        + "expected 0 | stderr: \(String(firstLine.prefix(240)).debugDescription)")
                }
            }
        }
        return failures
    }
}

final class BatteryToken {}

final class DataBox: @unchecked Sendable {
    var data = Data()
}

extension XCTestCase {
    /// Runs a table and reports every failing case in one readable failure.
    func assertBattery(_ cases: [BatteryCase], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(cases.isEmpty, "empty table", file: file, line: line)
        let names = cases.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "duplicate case names", file: file, line: line)
        let all = try Battery.check(cases)
        let failing = Set(all.compactMap { $0.split(separator: "]").first.map { String($0.dropFirst()) } })
        let failures = all.filter { line in !KnownOpen.cases.contains(where: { line.hasPrefix("[\($0)]") }) }
        let fixed = names.filter { KnownOpen.cases.contains($0) && !failing.contains($0) }
        XCTAssertTrue(fixed.isEmpty, "known-open cases now pass; remove them from KnownOpen: \(fixed)", file: file, line: line)
        if !failures.isEmpty {
            XCTFail("\(failures.count) of \(cases.count) cases failed:\n" + failures.joined(separator: "\n"),
                    file: file, line: line)
        }
    }
}
