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
        return environmentSetting == true
        #endif
    }

    /// What `TESTBED_VALIDATE` says: on for `1`, `true`, `yes`, `on`; off when unset, empty,
    /// `0`, `false`, `no`, `off` (any case); nil for anything else, which the command line
    /// refuses (`false` used to switch checked mode on, as every non-empty value but `0` did).
    public static var environmentSetting: Bool? {
        guard let value = getenv(environmentVariable) else { return false }
        switch String(cString: value).lowercased() {
        case "1", "true", "yes", "on": return true
        case "", "0", "false", "no", "off": return false
        default: return nil
        }
    }
}

/// An engine invariant broke: an internal error (a bug in a mechanism or a heuristic), never
/// a property of the query or data.
public struct EngineInvariantError: Error, CustomStringConvertible, Sendable {
    public let problem: String
    public var description: String { "internal error: engine invariant violated: \(problem)" }
}
