/// Why a baseline engine could not do what was asked.
public enum EngineError: Error, CustomStringConvertible, Sendable {
    /// The engine's programs or packages are not installed; the text says how to get them.
    case missing(engine: String, String)
    /// Starting the engine failed (a helper that would not start, a server that exited).
    case startup(engine: String, String)
    /// The engine cannot hold or express something the testbed asked for (a column mixing
    /// storage classes in a dialect with typed columns, a value it cannot store).
    case unsupported(engine: String, String)
    /// The engine reported an error, or stopped, while loading or running.
    case failed(engine: String, String)
    /// An unknown engine name, a bad setting (`where` names the option or key).
    case usage(String)

    public var description: String {
        switch self {
        case let .missing(engine, text): return "engine \(engine) is not available: \(text)"
        case let .startup(engine, text): return "engine \(engine) did not start: \(text)"
        case let .unsupported(engine, text): return "engine \(engine) cannot run this: \(text)"
        case let .failed(engine, text): return "engine \(engine): \(text)"
        case let .usage(text): return text
        }
    }

    /// Whether this is a problem of the machine or the input (exit 2), not of a result.
    public var isMissing: Bool {
        if case .missing = self { return true }
        return false
    }
}
