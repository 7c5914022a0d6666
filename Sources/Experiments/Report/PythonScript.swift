import FileSupport
import Foundation

/// A helper script under `scripts/` run with `python3`: found in the working directory's
/// checkout, else in the tree this module was built from.
struct PythonScript {
    let name: String

    var path: String? {
        if FileSystem.exists(name) { return name }
        var path = #filePath
        for _ in 0..<4 { path = (path as NSString).deletingLastPathComponent }
        let candidate = path + "/" + name
        return FileSystem.exists(candidate) ? candidate : nil
    }

    struct Failure: Error, CustomStringConvertible {
        let status: Int32?
        let description: String
    }

    /// Runs the script with `arguments`; returns its standard error on success.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        guard let path else { throw Failure(status: nil, description: "\(name) not found") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path] + arguments
        // Standard error to a file, not a pipe: a chatty script cannot fill a pipe and block.
        let errorFile = NSTemporaryDirectory() + "testbed-python-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).err"
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        defer { FileSystem.remove(errorFile) }
        guard let errors = FileHandle(forWritingAtPath: errorFile) else {
            throw Failure(status: nil, description: "cannot create \(errorFile)")
        }
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(status: nil, description: "cannot start python3 (\(error.localizedDescription)); install Python 3")
        }
        process.waitUntilExit()
        try? errors.close()
        let message = (try? FileSystem.readText(errorFile)) ?? ""
        guard process.terminationStatus == 0 else {
            let trimmed = Plotter.lastLine(of: message)
            throw Failure(status: process.terminationStatus, description: trimmed.isEmpty
                ? "python3 \(path) exited with status \(process.terminationStatus)" : trimmed)
        }
        return message
    }
}
