import ArgumentParser
import FileSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints `testbed: message` on standard error and returns exit code 2 (bad usage,
/// config or query), for `throw usageFailure(...)`.
func usageFailure(_ message: String) -> ExitCode {
    writeToStandardError("testbed: \(printable(message))\n")
    return ExitCode(2)
}

/// Whether the option `name` (`--rows`) was given on the command line, as `--rows N` or
/// `--rows=N`: for options with a default, whose value cannot tell.
func givenOnCommandLine(_ name: String) -> Bool {
    CommandLine.arguments.dropFirst().contains { $0 == name || $0.hasPrefix(name + "=") }
}

/// The text given to the option `name` on the command line (`--x V` or `--x=V`), for a
/// check the argument parser's own reading does not make (it reads `0x1p1` as a Double).
func commandLineText(of name: String) -> String? {
    let arguments = Array(CommandLine.arguments.dropFirst())
    for (i, argument) in arguments.enumerated() {
        if argument.hasPrefix(name + "=") { return String(argument.dropFirst(name.count + 1)) }
        if argument == name, i + 1 < arguments.count { return arguments[i + 1] }
    }
    return nil
}

/// A message made safe for the terminal: control characters (which reach messages from
/// configs, file names and query text) are escaped, line breaks between lines kept.
func printable(_ message: String) -> String { Printable.message(message) }

func writeToStandardError(_ text: String) {
    var copy = text
    copy.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}
