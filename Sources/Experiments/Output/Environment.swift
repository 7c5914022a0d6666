import Foundation
import SQLiteStore

/// `environment.txt`: what is needed to reproduce a result — machine, OS, Swift version,
/// build configuration, git commit, SQLite version and the command line; for a run also the
/// CPU model, the load average at its start and end and its calibration time, which `merge`
/// reads back (`ShardEnvironment`) to tell whether shards' times are comparable.
public enum Environment {
    public static let fileName = "environment.txt"

    public static func text(configPath: String) -> String {
        let info = ProcessInfo.processInfo
        var lines = [
            "date (UTC): \(preciseDate(Date()))",
            "host: \(info.hostName)",
            "machine: \(machine()), \(info.activeProcessorCount) cores, \(info.physicalMemory / 1_048_576) MiB",
            "cpu model: \(cpuModel())",
            "cores: \(info.activeProcessorCount)",
            "cpus allowed: \(cpusAllowed())",
            "load at start: \(loadLine())",
            "os: \(info.operatingSystemVersionString)",
            "swift: \(swiftVersion())",
            "build configuration: \(buildConfiguration)",
            "git commit: \(commit())",
            "sqlite: \(SQLiteDatabase.libraryVersion)",
            "config: \(configPath)",
            "command: \(info.arguments.joined(separator: " "))",
        ]
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// The toolchain's version line, asked of `swift-frontend`: the `swift` driver leaves a
    /// `/tmp/TemporaryDirectory.*` behind at every call (one per run and merge, thousands on
    /// a machine that runs the tests). The driver only where the frontend is not found.
    static func swiftVersion() -> String {
        firstLine(of: ["swift-frontend", "--version"]) ?? firstLine(of: ["swift", "--version"]) ?? "unknown"
    }

    /// The line a run adds once its calibration is measured (`Calibration`).
    public static func calibrationLine(_ microseconds: Double) -> String {
        "calibration_us: \(TimingRecord.format(microseconds))\n"
    }

    /// The lines a run appends when its cells are done (or it stopped): when, and the load then.
    public static func finishedLines(date: Date = Date()) -> String {
        "finished (UTC): \(preciseDate(date))\nload at end: \(loadLine())\n"
    }

    /// Milliseconds included, so `merge` can tell which shards overlapped in time.
    static func preciseDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// Reads what `preciseDate` writes, and the plain form older runs wrote.
    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }

    /// The 1, 5 and 15 minute load averages, e.g. `0.52 0.40 0.33`, or `unknown`.
    static func loadLine() -> String {
        var averages = [Double](repeating: 0, count: 3)
        guard getloadavg(&averages, 3) == 3 else { return "unknown" }
        return averages.map { String(format: "%.2f", $0) }.joined(separator: " ")
    }

    /// The cores this process may run on (`taskset`, Slurm's binding), e.g. `0-1` or `3`; `all`
    /// where the system does not say.
    static func cpusAllowed() -> String {
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("Cpus_allowed_list:") {
                return line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
            }
        }
        #endif
        return "all"
    }

    /// The processor's model name (`/proc/cpuinfo` on Linux, `sysctl` on macOS), or `unknown`.
    static func cpuModel() -> String {
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("model name") {
                if let colon = line.firstIndex(of: ":") {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return "unknown"
        #else
        return firstLine(of: ["sysctl", "-n", "machdep.cpu.brand_string"]) ?? "unknown"
        #endif
    }

    /// The line `--resume` appends to a run's `environment.txt`, so the file keeps what the
    /// run started with and says when, by which build and commit, it was continued.
    public static func resumedLine(date: Date = Date()) -> String {
        "resumed: \(ISO8601DateFormatter().string(from: date)), \(buildConfiguration), \(commit())\n"
    }

    static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    /// `git rev-parse HEAD`, marked when tracked files have local changes.
    static func commit() -> String {
        (firstLine(of: ["git", "rev-parse", "HEAD"]) ?? "unknown")
            + ((firstLine(of: ["git", "status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty ? "" : " (with local changes)")
    }

    static func machine() -> String {
        var name = utsname()
        uname(&name)
        return withUnsafeBytes(of: name.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The first line a command prints, or nil if it cannot run.
    static func firstLine(of arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }
}
