import FileSupport
import Foundation

/// Draws `plots/` from `summary.csv` with `scripts/plot_experiment.py` (matplotlib). When
/// python3 or matplotlib is missing the run still succeeds and says how to get plots.
public enum Plotter {
    public static let scriptName = "scripts/plot_experiment.py"

    /// The script in the working directory's checkout, else in the tree this module was built from.
    static var script: String? { locate(scriptName) }

    /// A script in the working directory's checkout, else in the tree this module was built from.
    static func locate(_ name: String) -> String? {
        if FileSystem.exists(name) { return name }
        var path = #filePath
        for _ in 0..<4 { path = (path as NSString).deletingLastPathComponent }
        let candidate = path + "/" + name
        return FileSystem.exists(candidate) ? candidate : nil
    }

    /// Runs `scriptName` (another plotting script, e.g. `scripts/plot_regret.py`) on `directory`.
    @discardableResult
    public static func plot(directory: String, console: Console, scriptName: String = Plotter.scriptName) -> Bool {
        guard let script = locate(scriptName) else {
            console.err("testbed: plots skipped: \(scriptName) not found\n")
            return false
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, directory]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        var message = ""
        do {
            try SignalCleanup.shared.killingChild(started: {
                try process.run()
                return process.processIdentifier
            }, during: {
                message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
            })
        } catch {
            console.err("testbed: plots skipped: cannot start python3 (\(error.localizedDescription)); install Python 3 and run scripts/setup.sh --plotting\n")
            return false
        }
        guard process.terminationStatus == 0 else {
            let reason = process.terminationStatus == 3
                ? "matplotlib is not installed; run scripts/setup.sh --plotting (or pip install matplotlib), then: python3 \(script) \(directory)"
                : "python3 \(script) failed: \(lastLine(of: message))"
            console.err("testbed: plots skipped: \(reason)\n")
            return false
        }
        return true
    }

    /// A Python traceback's last line (`OSError: [Errno 28] No space left on device`) says
    /// what went wrong; the frames above it are the script's, not the reader's concern.
    static func lastLine(of message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard message.contains("Traceback (most recent call last)"), let last = lines.last(where: { !$0.isEmpty }) else {
            return message.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return last
    }
}
