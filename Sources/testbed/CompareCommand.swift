import ArgumentParser
import Experiments
import FileSupport

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare flag sets within a run, or the same cells across two runs (regressions).",
        discussion: """
            With one run: each query and size's median total time per flag set and engine, side by \
            side, with the ratio to a baseline and its 95% bootstrap confidence interval; * marks a \
            ratio whose interval excludes 1.

            With two runs of one config (RUN_A RUN_B, e.g. a committed reference and a fresh run): \
            the cells whose median moved beyond its interval, counter changes as exact differences, \
            and changed results. Exit 1 when a cell is slower beyond --tolerance (its whole interval \
            above 1 + T) or a result changed.
            """
    )

    @Argument(help: "A run's output directory (or its summary.csv); or two run directories, RUN_A RUN_B.")
    var results: [String]

    @Option(help: ArgumentHelp(
        "Flag set or engine (sqlite, sqlite-analyzed) to compare against (default: the run's baseline); one run only.",
        discussion: "A flag set is named as in the config, or written as NAME=VALUE,... (canonical, or only what differs from all-on), matched on the flags column.",
        valueName: "flagset"))
    var baseline: String?

    @Option(help: ArgumentHelp("Two runs only: a cell regresses when B is slower than A by more than this fraction (default 0.1).",
                               valueName: "fraction"))
    var tolerance: String?

    func validate() throws {
        guard results.count == 1 || results.count == 2 else {
            throw ValidationError("give one run directory, or two (RUN_A RUN_B); got \(results.count)")
        }
        if results.count == 2, baseline != nil { throw ValidationError("--baseline: only with one run; two runs are compared cell by cell") }
        if results.count == 1, tolerance != nil { throw ValidationError("--tolerance: only with two runs (RUN_A RUN_B)") }
        if let tolerance, DecimalText.double(tolerance).map({ !$0.isFinite || $0 < 0 || $0 >= 1000 }) ?? true {
            throw ValidationError("--tolerance: '\(tolerance)' is not valid; expected a fraction from 0 to below 1000, e.g. 0.1 for 10%")
        }
    }

    func run() throws {
        let code: Int32
        if results.count == 2 {
            code = RunComparison(runA: results[0], runB: results[1],
                                 tolerance: tolerance.flatMap(DecimalText.double) ?? RunComparison.defaultTolerance).execute(console: .standard)
        } else {
            code = Comparison(results: results[0], baseline: baseline).execute(console: .standard)
        }
        if code != 0 { throw ExitCode(code) }
    }
}
