import ArgumentParser
import Experiments

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the output directories of `testbed run --shard K/N` into one result.",
        discussion: """
            The shards must come from the same config. The merged timings.csv and summary.csv \
            equal those of an unsharded run (measured times apart); the equality check runs \
            across all shards (exit 1 on a mismatch). Shards of different configs, commits or \
            splits (K/N with different N, or one K twice) are refused (exit 2). Shards that ran on \
            different hosts or CPU models, under load, or more at once on a host than it has cores \
            get a warning on stderr and in the merged environment.txt.
            """
    )

    @Argument(help: "Shard output directories.")
    var directories: [String]

    @Option(help: "Output directory (default: Results/<name>/<UTC timestamp>-merged).")
    var out: String?

    @Flag(help: "Scale each shard's times by the first shard's calibration_us over its own (default: times as measured).")
    var normalise = false

    func run() throws {
        var invocation = MergeInvocation(directories: directories, out: out)
        invocation.normalise = normalise
        let code = invocation.execute(console: .standard)
        if code != 0 { throw ExitCode(code) }
    }
}
