// Runs a program to completion and collects what it printed (standard output and error
// together): initdb, pg_ctl, rm. Pipes are made close-on-exec so that no other child,
// and in particular no postgres started meanwhile, inherits them.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

struct SubprocessResult {
    /// The exit status, or 128 + the signal that ended the program.
    let status: Int32
    let output: String

    /// The last `count` non-empty lines of the output, for error messages.
    func lastLines(_ count: Int) -> String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: true)
        return lines.suffix(count).joined(separator: "\n")
    }
}

enum Subprocess {
    /// Runs `arguments[0]` (an absolute path) with the rest as arguments, standard input
    /// from /dev/null; throws only when it cannot be started.
    static func run(_ arguments: [String]) throws -> SubprocessResult {
        guard let program = arguments.first else {
            throw PostgresError(.usage, "no program to run")
        }
        guard let fds = ProcessSpawn.pipe() else {
            throw PostgresError(.startup, "cannot create a pipe to run \(program): \(ProcessSpawn.errorText(errno))")
        }
        let pid: pid_t
        do {
            pid = try ProcessSpawn.start(arguments, descriptors: [
                (0, .open("/dev/null", flags: O_RDONLY)), (1, .copy(fds.write)), (2, .copy(fds.write)),
            ])
        } catch {
            close(fds.read); close(fds.write)
            throw PostgresError(.startup, "cannot run \(program): \(error.reason)")
        }
        close(fds.write)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fds.read, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: chunk[..<count])
        }
        close(fds.read)
        return SubprocessResult(status: ProcessSpawn.waitForExit(pid), output: String(decoding: output, as: UTF8.self))
    }
}
