import ArgumentParser

@main
struct Testbed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testbed",
        abstract: "A research testbed for just-in-time relational query optimization.",
        version: "0.1.0",
        subcommands: [GenerateCommand.self, QueriesCommand.self, QueryCommand.self, FlagsCommand.self]
    )
}
