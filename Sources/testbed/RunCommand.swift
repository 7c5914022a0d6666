import ArgumentParser
import Experiments

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an experiment config: sizes × backends × queries × flag sets × repetitions, plus SQLite baselines.",
        discussion: """
            Writes into --out DIR or Results/<name>/<UTC timestamp>/: timings.csv (one row per \
            repetition), passes.csv (time of each optimizer pass and heuristic hook per repetition), summary.csv and summary.txt (median, min, max per cell; speedup against \
            the baseline flag set), plans/ (DOT and SVG at the smallest and largest size, when the \
            config says `plans: true`), plots/ (matplotlib), report.html (the whole run on one page), \
            config.yaml as run, environment.txt, run.txt. Confidence intervals in summary.csv come \
            from scipy (scripts/setup.sh --plotting); without it their columns stay empty.

            Every cell of a query and size must give the same result hash (flag sets, backends, \
            SQLite engines); a mismatch is reported on stderr and in mismatches.txt, exit 1. \
            Ctrl-C or SIGTERM keeps the completed cells (exit 130 or 143); continue with --resume --out DIR. \
            --shard K/N runs every N-th cell starting at the K-th; join shards with `testbed merge`.
            """
    )

    @Argument(help: "An experiment config, e.g. Workloads/smoke.yaml.")
    var config: String

    @Option(help: "Output directory (default: Results/<name>/<UTC timestamp>).")
    var out: String?

    @Flag(help: "Continue an interrupted run in --out DIR (default: the newest run of this config's name).")
    var resume = false

    @Option(help: "Run only shard K of N (K/N, 1-based) of the cell matrix.")
    var shard: String?

    @OptionGroup var engine: EngineOptions

    func run() throws {
        var invocation = RunInvocation(configPath: config, out: out, resume: resume, shard: shard)
        invocation.disabledPasses = engine.disabledPasses
        invocation.validate = engine.validate
        let code = invocation.execute(console: .standard)
        if code != 0 { throw ExitCode(code) }
    }
}
