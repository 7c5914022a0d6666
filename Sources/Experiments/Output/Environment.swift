import Foundation
import SQLiteStore

/// `environment.txt`: what is needed to reproduce a result — machine, OS, Swift version,
/// build configuration, git commit, SQLite version and the command line.
public enum Environment {
    public static func text(configPath: String) -> String {
        let info = ProcessInfo.processInfo
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        var lines = [
            "date (UTC): \(ISO8601DateFormatter().string(from: Date()))",
            "host: \(info.hostName)",
            "machine: \(machine()), \(info.activeProcessorCount) cores, \(info.physicalMemory / 1_048_576) MiB",
            "os: \(info.operatingSystemVersionString)",
            "swift: \(firstLine(of: ["swift", "--version"]) ?? "unknown")",
            "build configuration: \(configuration)",
            "git commit: \(firstLine(of: ["git", "rev-parse", "HEAD"]) ?? "unknown")"
                + ((firstLine(of: ["git", "status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty ? "" : " (with local changes)"),
            "sqlite: \(SQLiteDatabase.libraryVersion)",
            "config: \(configPath)",
            "command: \(info.arguments.joined(separator: " "))",
        ]
        lines.append("")
        return lines.joined(separator: "\n")
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
