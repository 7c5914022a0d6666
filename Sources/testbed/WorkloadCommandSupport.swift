import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints `testbed: message` on standard error and returns exit code 2 (bad usage,
/// config or query), for `throw usageFailure(...)`.
func usageFailure(_ message: String) -> ExitCode {
    writeToStandardError("testbed: \(message)\n")
    return ExitCode(2)
}

func writeToStandardError(_ text: String) {
    var copy = text
    copy.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}
