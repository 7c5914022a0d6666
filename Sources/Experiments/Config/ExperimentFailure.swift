/// Failures of the experiment commands other than config mistakes. Exit codes follow the
/// design's contract: `usage` is 2; `output` (a file that cannot be written) is 2 too.
public enum ExperimentFailure: Error, Equatable, CustomStringConvertible {
    case usage(String)
    case output(String)

    public var description: String {
        switch self {
        case let .usage(message), let .output(message): return message
        }
    }
}
