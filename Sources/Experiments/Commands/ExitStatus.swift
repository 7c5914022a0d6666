import FileSupport
import QueryEngine
import Workloads

/// Maps what the experiment commands throw to the design's exit codes and prints the
/// message: 2 for a bad config, usage, query or unwritable output; 1 for anything else
/// that stopped a run (a failing engine counts as a failed verification).
public enum ExitStatus {
    public static func code(for error: any Error, console: Console) -> Int32 {
        switch error {
        case let error as ConfigError:
            console.err("testbed: \(error)\n")
            return 2
        case let error as ExperimentFailure:
            console.err("testbed: \(error)\n")
            return 2
        case let error as QueryError:
            console.err("testbed: \(error)\n")
            return 2
        case let error as WorkloadError:
            console.err("testbed: \(error)\n")
            return 2
        case let error as FileSystemError:
            console.err("testbed: \(error)\n")
            return 2
        case let error as DirectoryLockedError:
            console.err("testbed: \(error)\n")
            return 2
        case let error as OutputPathError:
            console.err("testbed: \(error)\n")
            return 2
        case let error as FlagError:
            console.err("testbed: \(error)\n")
            return 2
        default:
            console.err("testbed: the run failed: \(error)\n")
            return 1
        }
    }
}
