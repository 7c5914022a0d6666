import Foundation
import SQLiteStore

/// `environment.txt`: what is needed to reproduce a result — machine, OS, Swift version,
/// build configuration, git commit, SQLite version and the command line.
public enum Environment {
    public static let fileName = "environment.txt"

    public static func text(configPath: String) -> String {
        let info = ProcessInfo.processInfo
        var lines = [
            "date (UTC): \(ISO8601DateFormatter().string(from: Date()))",
            "host: \(info.hostName)",
            "machine: \(machine()), \(info.activeProcessorCount) cores, \(info.physicalMemory / 1_048_576) MiB",
            "os: \(info.operatingSystemVersionString)",
            "swift: \(firstLine(of: ["swift", "--version"]) ?? "unknown")",
            "build configuration: \(buildConfiguration)",
            "git commit: \(commit())",
            "sqlite: \(SQLiteDatabase.libraryVersion)",
            "config: \(configPath)",
            "command: \(info.arguments.joined(separator: " "))",
        ]
        lines.append("")
        return lines.joined(separator: "\n")
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
