import ArgumentParser
import Experiments

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write report.html for a run directory (a run writes one itself; this is for older runs).",
        discussion: """
            One static page, readable offline: the config and environment, the result-equality \
            verdict, the summary with confidence intervals and speedups, counters, plots, plan \
            graphs side by side for two flag sets, and per-pass timings when passes.csv exists. \
            Images are linked relatively, so the directory can be zipped and mailed.
            """
    )

    @Argument(help: "A run's output directory.")
    var directory: String

    func run() throws {
        let code = ReportInvocation(directory: directory).execute(console: .standard)
        if code != 0 { throw ExitCode(code) }
    }
}
