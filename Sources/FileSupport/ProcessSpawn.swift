#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A program that could not be started: which, and the C library's reason.
public struct ProcessSpawnError: Error, CustomStringConvertible {
    public let program: String
    public let code: Int32

    public var reason: String { ProcessSpawn.errorText(code) }
    public var description: String { "cannot start \(program): \(reason)" }
}

/// Starting programs with posix_spawn, and the pipe and exit-status details that every
/// module starting one needs alike: Engines' `ChildProcess` (the DuckDB helper, measurement
/// children) and PostgresClient's `Subprocess` and `ServerWatchdog` (initdb, pg_ctl, the
/// watchdog shell).
public enum ProcessSpawn {
    /// What one of the child's descriptors becomes.
    public enum Descriptor {
        /// A copy of one of ours (a pipe end).
        case copy(Int32)
        /// A file opened with `flags` (`/dev/null`).
        case open(String, flags: Int32)
    }

    /// Starts `arguments[0]` with the rest as arguments and returns its pid. `searchPath`
    /// looks the program up on PATH, else it is a path. `descriptors` set the child's
    /// descriptors (0, 1, 2); the others it inherits, which is why `pipe()` makes pipes
    /// whose ends no child inherits. `ownProcessGroup` puts the child in a process group of
    /// its own, so that the terminal's Ctrl-C reaches only us.
    public static func start(
        _ arguments: [String], descriptors: [(Int32, Descriptor)],
        searchPath: Bool = false, ownProcessGroup: Bool = false
    ) throws(ProcessSpawnError) -> pid_t {
        guard let program = arguments.first else { throw ProcessSpawnError(program: "(no program)", code: EINVAL) }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, descriptor) in descriptors {
            switch descriptor {
            case let .copy(fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            case let .open(path, flags): posix_spawn_file_actions_addopen(&actions, target, path, flags, 0)
            }
        }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownProcessGroup {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = searchPath
            ? posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
            : posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        guard status == 0 else { throw ProcessSpawnError(program: program, code: status) }
        return pid
    }

    /// A pipe whose two ends no program we start inherits (Glibc does not export pipe2 to
    /// Swift, so the flag is set right after); nil with `errno` set when none can be made.
    public static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        #if canImport(Darwin)
        guard Darwin.pipe(&fds) == 0 else { return nil }
        #elseif canImport(Musl)
        guard Musl.pipe(&fds) == 0 else { return nil }
        #else
        guard Glibc.pipe(&fds) == 0 else { return nil }
        #endif
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return (fds[0], fds[1])
    }

    /// Waits for a child and returns its exit status (128 + signal when a signal ended it,
    /// -1 when it is not ours to wait for).
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        return exitStatus(status)
    }

    /// `waitpid`'s status as an exit status, 128 + the signal that ended the program.
    public static func exitStatus(_ status: Int32) -> Int32 {
        // WIFEXITED / WEXITSTATUS by hand (the macros are not imported).
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    public static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
