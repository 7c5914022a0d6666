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
        var fds: [Int32] = [-1, -1]
        guard Subprocess.closeOnExecPipe(&fds) else {
            throw PostgresError(.startup, "cannot create a pipe to run \(program): \(errorText(errno))")
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw PostgresError(.startup, "cannot run \(program): \(errorText(spawned))")
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: chunk[..<count])
        }
        close(fds[0])
        return SubprocessResult(status: waitForExit(pid), output: String(decoding: output, as: UTF8.self))
    }

    /// Waits for a child and returns its exit status (128 + signal when a signal ended it).
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        // WIFEXITED / WEXITSTATUS by hand (the macros are not imported).
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// A pipe whose two ends are not inherited by programs we start (Glibc does not export
    /// pipe2 to Swift, so the flag is set right after).
    static func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
