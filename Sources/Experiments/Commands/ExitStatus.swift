import FileSupport
import QueryEngine
import Workloads

/// Maps what the experiment commands throw to the design's exit codes and prints the
/// message: 2 for a bad config, usage, query or unwritable output; 1 for anything else
/// that stopped a run (a failing engine counts as a failed verification). Control
/// characters that reached a message from a config, a file name or query text are shown
/// as escapes (`Printable.message`), never sent to the terminal raw.
public enum ExitStatus {
    public static func code(for error: any Error, console: Console) -> Int32 {
        switch error {
        case is ConfigError, is ExperimentFailure, is QueryError, is WorkloadError, is FileSystemError,
             is DirectoryLockedError, is OutputPathError, is FlagError:
            console.err("testbed: \(Printable.message("\(error)"))\n")
            return 2
        default:
            console.err("testbed: the run failed: \(Printable.message("\(error)"))\n")
            return 1
        }
    }
}
