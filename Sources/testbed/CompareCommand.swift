import ArgumentParser
import Experiments

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Show a run's median total times side by side, with ratios to a baseline flag set or engine.",
        discussion: "A difference is marked with * only where the min–max ranges of the two cells do not overlap."
    )

    @Argument(help: "A run's output directory (or its summary.csv).")
    var results: String

    @Option(help: ArgumentHelp(
        "Flag set or engine (sqlite, sqlite-analyzed) to compare against (default: the run's baseline).",
        discussion: "A flag set is named as in the config, or written as NAME=VALUE,... (canonical, or only what differs from all-on), matched on the flags column.",
        valueName: "flagset"))
    var baseline: String?

    func run() throws {
        let code = Comparison(results: results, baseline: baseline).execute(console: .standard)
        if code != 0 { throw ExitCode(code) }
    }
}
