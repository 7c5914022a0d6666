// A child process spoken to in lines: its standard input and output on pipes, its standard
// error shared with ours. Used for the DuckDB helper and for measurements that need a
// fresh process (resident memory).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
}

public final class ChildProcess {
    public let arguments: [String]
    public let pid: pid_t
    private var input: Int32
    private let output: Int32
    private var pending: [UInt8] = []
    private var exited = false

    /// Starts `arguments[0]` (searched on PATH) with the remaining arguments.
    public init(arguments: [String], ownProcessGroup: Bool = false, quiet: Bool = false) throws {
        guard let program = arguments.first else { throw ChildProcessError(description: "no program to start") }
        self.arguments = arguments
        // A helper that dies must give us an error on write, not kill us.
        signal(SIGPIPE, SIG_IGN)
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw ChildProcessError(description: "pipe: errno \(errno)") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw ChildProcessError(description: "pipe: errno \(errno)")
        }
        // Our ends must not leak into later children (a leaked write end would keep a
        // helper from ever seeing the end of its input).
        _ = fcntl(toChild[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fromChild[0], F_SETFD, FD_CLOEXEC)

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addclose(&actions, toChild[0])
        posix_spawn_file_actions_addclose(&actions, fromChild[1])
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownProcessGroup {
            // Its own process group: Ctrl-C at the terminal reaches only us, and we stop the
            // child ourselves (it would otherwise die mid-answer).
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        let status = posix_spawnp(&child, program, &actions, &attributes, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1]); close(fromChild[0])
            throw ChildProcessError(description: "cannot start \(program): \(String(cString: strerror(status)))")
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
    }

    deinit { finish() }

    /// Writes `line` and a line feed to the child's standard input.
    public func writeLine(_ line: String) throws {
        var bytes = Array(line.utf8)
        bytes.append(10)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ChildProcessError(description: "\(arguments[0]) stopped reading its input (errno \(errno))")
            }
            offset += written
        }
    }

    /// The next line of the child's standard output (without its line feed), or nil at its end.
    public func readLine() throws -> String? {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ChildProcessError(description: "reading from \(arguments[0]): errno \(errno)")
            }
            if count == 0 {
                guard !pending.isEmpty else { return nil }
                defer { pending.removeAll() }
                return String(decoding: pending, as: UTF8.self)
            }
            pending.append(contentsOf: chunk[..<count])
        }
    }

    /// Closes the child's input and waits for it to exit; returns its exit status. With
    /// `grace`, a child still running after that many seconds is killed (SIGKILL).
    @discardableResult
    public func finish(grace: Double? = nil) -> Int32 {
        guard !exited else { return 0 }
        exited = true
        if input >= 0 { close(input); input = -1 }
        var status: Int32 = 0
        if let grace {
            var waited = 0.0
            while true {
                let r = waitpid(pid, &status, WNOHANG)
                if r == pid || (r < 0 && errno != EINTR) { break }
                if waited >= grace {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    break
                }
                usleep(20_000)
                waited += 0.02
            }
        } else {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        close(output)
        // WIFEXITED / WEXITSTATUS by hand (macros are not imported).
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
