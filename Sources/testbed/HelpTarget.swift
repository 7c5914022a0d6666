import ArgumentParser

/// ArgumentParser's own `help` command prints the nearest command's help and exits 0 for a
/// name it does not know (`testbed help nope`, `testbed help run nope`), so a misspelt
/// subcommand looked like a successful lookup. This checks the names first.
enum HelpTarget {
    /// An error naming the first word after `help` that is not a subcommand of the words
    /// before it, or nil when every word names one (or the arguments are not a `help` call).
    static func check(_ arguments: [String], root: any ParsableCommand.Type) -> ValidationError? {
        guard arguments.first == "help" else { return nil }
        var command = root
        var path = [root.configuration.commandName ?? "testbed"]
        for word in arguments.dropFirst() where !word.hasPrefix("-") {
            let children = command.configuration.subcommands
            guard let child = children.first(where: { $0.configuration.commandName == word }) else {
                let names = children.compactMap { $0.configuration.commandName }
                let known = names.isEmpty
                    ? "`\(path.joined(separator: " "))` has no subcommands"
                    : "its subcommands are " + names.joined(separator: ", ")
                return ValidationError("help: '\(word)' is not a subcommand of `\(path.joined(separator: " "))`; \(known)")
            }
            command = child
            path.append(word)
        }
        return nil
    }
}
