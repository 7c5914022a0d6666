import ArgumentParser
import Experiments
import FileSupport
import Foundation
import PlistStore
import QueryEngine
import Verification
import Workloads

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
            PlanCommand.self, ObserveCommand.self, EnginesCommand.self,
            VerifyCommand.self, HuntCommand.self,
            RunCommand.self, CompareCommand.self, MergeCommand.self, ReportCommand.self,
        ]
    )
}

extension Testbed {
    /// Like ArgumentParser's default entry point, but every failure speaks the contract:
    /// bad usage (an unknown option, a missing argument, a value that does not parse, a
    /// `validate()` refusal, a single-valued option given twice) and bad input (query,
    /// catalog, flags, paths, repro files) print `testbed: message` and exit 2, rather than
    /// ArgumentParser's `Error: message` and 64 or 1. Help and version still print to
    /// standard output and exit 0.
    static func main() {
        do {
            try ArgumentEncoding.check()
            if let unknown = HelpTarget.check(Array(CommandLine.arguments.dropFirst()), root: Testbed.self) {
                throw unknown
            }
            if EngineChecks.environmentSetting == nil {
                let value = getenv(EngineChecks.environmentVariable).map { String(cString: $0) } ?? ""
                throw ValidationError("\(EngineChecks.environmentVariable) is \(Printable.quoted(value)); expected 1 (checked mode on) "
                    + "or 0 (off)")
            }
            var command = try parseAsRoot()
            try RepeatedOptions.check(type(of: command), arguments: Array(CommandLine.arguments.dropFirst()))
            try IntegerOptions.check(command, arguments: Array(CommandLine.arguments.dropFirst()))
            // Not for help (which ArgumentParser hands back as a command of its own).
            if !(command is Testbed), !String(describing: type(of: command)).contains("Help") { try checkTemporaryRoot() }
            try command.run()
        } catch {
            guard let (message, code) = failure(error) else { exit(withError: error) }
            writeToStandardError("testbed: " + printable(message) + "\n")
            exit(withError: ExitCode(code))
        }
    }

    /// A `TMPDIR` that cannot hold a temporary is bad input, refused before any work: found
    /// where a temporary was first made, it ended `run` with exit 1 and a failed run, and
    /// made `verify` report every case as an engine error and write repros of them.
    static func checkTemporaryRoot() throws {
        guard let value = getenv("TMPDIR").map({ String(cString: $0) }), !value.isEmpty else { return }
        var isDirectory: ObjCBool = false
        let why: String?
        if !FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory) {
            why = "no such directory"
        } else if !isDirectory.boolValue {
            why = "not a directory"
        } else if access(value, W_OK | X_OK) != 0 {
            why = "not writable"
        } else {
            why = nil
        }
        guard let why else { return }
        throw usageFailure("TMPDIR is \(Printable.quoted(value)): \(why); temporaries are made there. Give a writable directory, or unset it for /tmp")
    }

    /// The message (without the `testbed: ` prefix) and exit code for an error that ended a
    /// command, or nil for help, version and exit codes, which ArgumentParser finishes
    /// (help and version on standard output, exit 0; an exit code's message was printed).
    static func failure(_ error: any Error) -> (message: String, code: Int32)? {
        if error is ExitCode { return nil }
        switch exitCode(for: error) {
        case .success:
            return nil
        case .validationFailure:
            var text = fullMessage(for: error)
            if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
            while text.hasSuffix("\n") { text.removeLast() }
            return (negativeValueMessage(text, arguments: CommandLine.arguments) ?? digitsHint(text) ?? text, 2)
        default:
            break
        }
        switch error {
        case is QueryError, is WorkloadError, is FlagError, is FileSystemError, is OutputPathError,
             is VerificationError, is ConfigError, is PlistError:
            return ("\(error)", 2)
        default:
            return ("the command failed: \(error)", 1)
        }
    }
}

extension Testbed {
    /// ArgumentParser's "The value '1e3' is invalid for '--rows <rows>'" says nothing of why.
    /// Where the value is a number (so the option must take integers: a real would have
    /// parsed), its first line says why: a whole number written otherwise (`1e3`, `2.0`) is
    /// to be written in digits, a fraction is not a whole number, and a larger one is out
    /// of the option's range.
    static func digitsHint(_ text: String) -> String? {
        let prefix = "The value '"
        guard text.hasPrefix(prefix), let end = text.dropFirst(prefix.count).firstIndex(of: "'") else { return nil }
        let value = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<end])
        guard !text.contains("Please provide one of") else { return nil }
        // The option's own reason (`--sizes 5,5`: "'5' is listed twice") needs no other.
        if text.split(separator: "\n", maxSplits: 1).first?.hasSuffix("'") == false { return nil }
        if let integer = Int64(value) {
            // `--seed=-1` passes the parser's option check, then fails to parse as unsigned.
            return integer < 0 ? hinted(text, "it takes a number that is not negative") : nil
        }
        let reason: String
        guard let number = Double(value), number.isFinite else {
            // Every option whose value fails to parse without a list of choices takes a
            // number (the others are text or name their choices); `--seed abc` said only
            // "is invalid".
            return hinted(text, "it takes a number")
        }
        if number != number.rounded() {
            reason = "it takes a whole number"
        } else if abs(number) < 9.0e15 && !value.allSatisfy({ $0.isASCII && $0.isNumber }) {
            reason = "it takes an integer in digits: write \(Int64(number))"
        } else {
            reason = "the number is out of this option's range"
        }
        return hinted(text, reason)
    }

    /// `text` with `reason` after its first line.
    private static func hinted(_ text: String, _ reason: String) -> String {
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let hint = String(lines[0]) + "; " + reason
        return lines.count > 1 ? hint + "\n" + lines[1] : hint
    }

    /// ArgumentParser reads `--seed -1`'s `-1` as an option, so it reports the value missing;
    /// said as it is when the word after the option is a negative number: the value is out of
    /// range, or, where negatives are meaningful, `--seed=-1` passes it.
    static func negativeValueMessage(_ text: String, arguments: [String]) -> String? {
        guard text.hasPrefix("Missing value for '--"),
            let end = text.dropFirst("Missing value for '".count).firstIndex(where: { $0 == " " || $0 == "'" })
        else { return nil }
        let option = String(text[text.index(text.startIndex, offsetBy: "Missing value for '".count)..<end])
        guard let at = arguments.firstIndex(of: option), at + 1 < arguments.count else { return nil }
        let value = arguments[at + 1]
        // A number, or a value led by one (`--shard -1/2`).
        guard value.hasPrefix("-"), value.count > 1, value.dropFirst().first?.isNumber == true || Double(value) != nil else { return nil }
        return "\(option): '\(value)' is not valid; expected a value that is not negative "
            + "(a word starting with '-' is read as an option; write \(option)=\(value) to pass it anyway)"
    }
}
