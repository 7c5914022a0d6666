import ArgumentParser
import Experiments

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the output directories of `testbed run --shard K/N` into one result.",
        discussion: """
            The shards must come from the same config. The merged timings.csv and summary.csv \
            equal those of an unsharded run (measured times apart); the equality check runs \
            across all shards (exit 1 on a mismatch).
            """
    )

    @Argument(help: "Shard output directories.")
    var directories: [String]

    @Option(help: "Output directory (default: Results/<name>/<UTC timestamp>-merged).")
    var out: String?

    func run() throws {
        let code = MergeInvocation(directories: directories, out: out).execute(console: .standard)
        if code != 0 { throw ExitCode(code) }
    }
}
