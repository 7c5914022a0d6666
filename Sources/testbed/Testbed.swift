import ArgumentParser

@main
struct Testbed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testbed",
        abstract: "A research testbed for just-in-time relational query optimization.",
        discussion: """
            Builds lazy relation graphs in the style of PLRelational, runs them under any \
            combination of optimizer heuristics over memory or SQLite sources, and checks every \
            result against a reference evaluator and SQLite.

            Start with `testbed demo` (the seed articles' examples) and `testbed flags` (the \
            heuristics). Exit codes: 0 success, 1 a result mismatch or failed verification, \
            2 bad usage, config or query.
            """,
        version: "0.1.0",
        subcommands: [
            DemoCommand.self,
            GenerateCommand.self, QueriesCommand.self, QueryCommand.self, FlagsCommand.self,
            PlanCommand.self,
            VerifyCommand.self,
            RunCommand.self, CompareCommand.self, MergeCommand.self,
        ]
    )
}

extension Testbed {
    /// Like ArgumentParser's default entry point, but bad usage (an unknown option, a
    /// missing argument, a value that does not parse) exits 2, the contract's code, rather
    /// than ArgumentParser's 64. Help and version still exit 0.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                writeToStandardError(fullMessage(for: error) + "\n")
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}
