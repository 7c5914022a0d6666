#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checked mode: the engine validates the plan graph before the first optimizer pass, after
/// every pass and after every runtime edit (a subtree copy), and checks its own invariants
/// while rows move (see `InvariantChecks`), failing the run with an
/// `EngineInvariantError` when one breaks. On in debug builds (so in every test), in the
/// fuzzer and catalog verification, and in release when the environment variable
/// `TESTBED_VALIDATE=1` is set or `--validate` is given to `testbed query` / `testbed run`.
public enum EngineChecks {
    /// The environment variable that switches checked mode on in release builds.
    public static let environmentVariable = "TESTBED_VALIDATE"

    public static var enabledByDefault: Bool {
        #if DEBUG
        return true
        #else
        guard let value = getenv(environmentVariable) else { return false }
        let text = String(cString: value)
        return !text.isEmpty && text != "0"
        #endif
    }
}

/// An engine invariant broke: an internal error (a bug in a mechanism or a heuristic), never
/// a property of the query or data.
public struct EngineInvariantError: Error, CustomStringConvertible, Sendable {
    public let problem: String
    public var description: String { "internal error: engine invariant violated: \(problem)" }
}
