import FileSupport

/// Mistakes in generator input: unknown shapes and parameters, values out of range.
public enum WorkloadError: Error, Equatable, CustomStringConvertible {
    case unknownShape(String, suggestion: String?)
    case unknownParameter(String, shape: String, known: [String], suggestion: String?)
    case badParameter(name: String, value: String, expected: String)
    /// An integer parameter (or the row count) outside `minimum...maximum`.
    case outOfRange(name: String, value: String, minimum: Int, maximum: Int)
    /// Parameter text that is not `key=value`.
    case malformedParameter(String)
    /// A parameter given twice (`--param roots=1 --param roots=2`): refused rather than the last one winning.
    case repeatedParameter(String, first: String, second: String)
    case impossible(String)
    case output(String)
    /// A dataset whose estimated size does not fit in the memory available.
    case insufficientMemory(activity: String, estimate: Int, memory: MachineMemory, hint: String)

    public var description: String {
        switch self {
        case let .unknownShape(name, suggestion):
            return "unknown shape '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + " (expected one of: " + Shape.allCases.map(\.rawValue).joined(separator: ", ") + ")"
        case let .unknownParameter(key, shape, known, suggestion):
            return "unknown parameter '\(key)' for shape \(shape)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + (known.isEmpty ? " (it takes no parameters)" : " (known: " + known.joined(separator: ", ") + ")")
        case let .malformedParameter(text):
            return "\(Printable.quoted(text)) is not key=value"
        case .badParameter, .outOfRange, .repeatedParameter:
            let (name, problem) = parameterProblem ?? ("?", "?")  // these three cases always have one
            return "parameter '\(name)': \(problem)"
        case let .impossible(message):
            return message
        case let .output(message):
            return message
        case let .insufficientMemory(activity, estimate, memory, hint):
            return "\(activity) needs about \(MachineMemory.format(estimate)) of memory (estimated), more than the "
                + "\(MachineMemory.format(memory.availableBytes)) available (\(memory.source)); \(hint)"
        }
    }

    /// For an error about one parameter's value (or the row count, `rows`): its name, and
    /// the message without the `parameter 'NAME': ` lead, so that a caller can name the
    /// place its own way (`--param roots: …`, `--rows: …`).
    public var parameterProblem: (name: String, problem: String)? {
        switch self {
        case let .badParameter(name, value, expected):
            return (name, value.isEmpty ? "expected \(expected)" : "'\(value)' is not valid; expected \(expected)")
        case let .outOfRange(name, value, minimum, maximum):
            let spelling = Int(value) != nil && !DecimalText.isDecimalInteger(value) ? " written in decimal digits (no plus sign or leading zero)" : ""
            return (name, "'\(value)' is not valid; expected an integer from \(minimum) to \(maximum)\(spelling)")
        case let .repeatedParameter(name, first, second):
            return (name, "given twice ('\(first)', then '\(second)'); give it once")
        case .unknownShape, .unknownParameter, .malformedParameter, .impossible, .output, .insufficientMemory:
            return nil
        }
    }
}
