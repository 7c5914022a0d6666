#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

/// How the DuckDB helper is started: the interpreter (`TESTBED_PYTHON`, else `python3`), the
/// script (`TESTBED_DUCKDB_HELPER`, else `scripts/engines/duckdb_helper.py` under the current
/// directory, else in the source tree this binary was built from) and how long it may take
/// to answer its first request (`TESTBED_DUCKDB_START_TIMEOUT` seconds, else 60). A variable
/// naming the wrong thing is refused naming the variable and its value: it used to surface
/// as the helper failing (exit 1), or as `python3` "not on PATH", or as a hang.
public struct DuckDBHelperSetup: Sendable {
    public static let pythonVariable = "TESTBED_PYTHON"
    public static let helperVariable = "TESTBED_DUCKDB_HELPER"
    public static let timeoutVariable = "TESTBED_DUCKDB_START_TIMEOUT"
    public static let defaultStartTimeout = 60
    static let timeoutRange = 1...86_400

    public let python: String
    public let script: String
    /// Seconds the helper (and the interpreter's check) may take to answer.
    public let startTimeout: Int
    /// The interpreter as messages name it: `TESTBED_PYTHON=…` when the variable set it.
    public let pythonName: String
    /// The script as messages name it: `TESTBED_DUCKDB_HELPER=…` when the variable set it.
    public let scriptName: String

    /// Why the environment cannot start the helper: the text of an "engine not available".
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    public init(python: String, script: String, startTimeout: Int = DuckDBHelperSetup.defaultStartTimeout) {
        self.python = python
        self.script = script
        self.startTimeout = startTimeout
        pythonName = python
        scriptName = "the DuckDB helper script \(script)"
    }

    private init(python: String, pythonName: String, script: String, scriptName: String, startTimeout: Int) {
        self.python = python
        self.script = script
        self.startTimeout = startTimeout
        self.pythonName = pythonName
        self.scriptName = scriptName
    }

    /// The setup the environment gives, each variable checked without starting anything.
    public static func fromEnvironment() throws(Problem) -> DuckDBHelperSetup {
        var startTimeout = defaultStartTimeout
        if let text = environment(timeoutVariable) {
            guard let seconds = wholeNumber(text), timeoutRange.contains(seconds) else {
                throw Problem(description: "\(timeoutVariable)=\(Printable.escaped(text)) is not a whole number of seconds "
                    + "from \(timeoutRange.lowerBound) to \(timeoutRange.upperBound)")
            }
            startTimeout = seconds
        }
        var python = "python3"
        var pythonName = python
        if let given = environment(pythonVariable) {
            pythonName = "\(pythonVariable)=\(Printable.escaped(given))"
            if let why = notAProgram(given) {
                throw Problem(description: "\(pythonName) \(why); set it to a Python 3 interpreter with the duckdb package "
                    + "(`bash scripts/setup.sh --engines` installs it)")
            }
            python = given
        }
        if let given = environment(helperVariable) {
            let name = "\(helperVariable)=\(Printable.escaped(given))"
            if let why = notAFile(given) {
                throw Problem(description: "\(name) \(why); set it to the path of scripts/engines/duckdb_helper.py")
            }
            return DuckDBHelperSetup(python: python, pythonName: pythonName, script: given, scriptName: name, startTimeout: startTimeout)
        }
        let script = defaultScript()
        guard access(script, R_OK) == 0 else {
            throw Problem(description: "the DuckDB helper script \(script) is not there (set \(helperVariable) to its path)")
        }
        return DuckDBHelperSetup(
            python: python, pythonName: pythonName, script: script, scriptName: "the DuckDB helper script \(script)",
            startTimeout: startTimeout)
    }

    /// nil when the interpreter is Python 3 and imports duckdb (asked in a process of its
    /// own, within the start-up timeout), else why not.
    public func checkInterpreter() -> String? {
        let hint = "; install it with `bash scripts/setup.sh --engines` (pip install duckdb)"
        let probe = "import sys; print(sys.version_info[0], flush=True); import duckdb; print('duckdb', flush=True)"
        let child: ChildProcess
        do { child = try ChildProcess(arguments: [python, "-c", probe], quiet: true) } catch {
            return (pythonName == python ? "\(python) is not on PATH" : "\(pythonName) cannot be started: \(error)") + hint
        }
        defer { child.finish(grace: 0) }
        let version: String?, imported: String?
        do {
            version = try child.readLine(within: Double(startTimeout))
            imported = version == "3" ? try child.readLine(within: Double(startTimeout)) : nil
        } catch {
            let timedOut = (error as? ChildProcessError)?.timedOut == true
            return timedOut ? "\(pythonName) did not answer within \(startTimeout) s (\(Self.timeoutVariable) sets the limit)"
                : "\(pythonName): \(error)"
        }
        guard version == "3" else {
            return "\(pythonName) is not Python 3 (asked for its version, it "
                + (version.map { "answered \(Printable.excerpt($0))" } ?? "answered nothing") + ")"
                + (pythonName == python ? "" : "; set it to a Python 3 interpreter with the duckdb package")
        }
        return imported == "duckdb" ? nil : "the duckdb Python package is not installed for \(pythonName)" + hint
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Decimal digits without a leading zero or sign, by the testbed's one integer rule.
    private static func wholeNumber(_ text: String) -> Int? {
        guard !text.hasPrefix("-"), DecimalText.isDecimalInteger(text) else { return nil }
        return Int(text)
    }

    /// Why `name` (a path, or a name looked up on PATH) cannot be run, or nil.
    private static func notAProgram(_ name: String) -> String? {
        if !name.contains("/") {
            let path = environment("PATH") ?? "/usr/bin:/bin"
            let found = path.split(separator: ":").contains { directory in
                let candidate = "\(directory)/\(name)"
                return FileSystem.kind(of: candidate) == .file && access(candidate, X_OK) == 0
            }
            return found ? nil : "is not on PATH"
        }
        return notARegularFile(name, access: X_OK, missing: "cannot be run", directory: "is a directory, not a program",
                               denied: "is not executable")
    }

    /// Why `path` is not a readable regular file, or nil.
    private static func notAFile(_ path: String) -> String? {
        notARegularFile(path, access: R_OK, missing: "is not there", directory: "is a directory, not the helper script",
                        denied: "cannot be read")
    }

    /// Why `path` is not a regular file that `access(mode)` allows, in the caller's words.
    private static func notARegularFile(_ path: String, access mode: Int32, missing: String, directory: String,
                                        denied: String) -> String? {
        switch FileSystem.kind(of: path) {
        case .missing: return missing
        case .directory: return directory
        case .other: return "is not a regular file"
        case .file: return access(path, mode) == 0 ? nil : denied
        }
    }

    private static func defaultScript() -> String {
        let relative = "scripts/engines/duckdb_helper.py"
        if access(relative, R_OK) == 0 { return relative }
        var path = #filePath
        for _ in 0..<4 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path + "/" + relative
    }
}
