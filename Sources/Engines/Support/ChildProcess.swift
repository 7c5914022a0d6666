// A child process spoken to in lines: its standard input and output on pipes, its standard
// error shared with ours. Used for the DuckDB helper and for measurements that need a
// fresh process (resident memory).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

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
        guard !arguments.isEmpty else { throw ChildProcessError(description: "no program to start") }
        self.arguments = arguments
        // A helper that dies must give us an error on write, not kill us.
        signal(SIGPIPE, SIG_IGN)
        // Close-on-exec ends: a write end leaked into a later child would keep a helper
        // from ever seeing the end of its input.
        guard let toChild = ProcessSpawn.pipe() else { throw ChildProcessError(description: "pipe: errno \(errno)") }
        guard let fromChild = ProcessSpawn.pipe() else {
            close(toChild.read); close(toChild.write)
            throw ChildProcessError(description: "pipe: errno \(errno)")
        }
        var descriptors: [(Int32, ProcessSpawn.Descriptor)] = [(0, .copy(toChild.read)), (1, .copy(fromChild.write))]
        if quiet { descriptors.append((2, .open("/dev/null", flags: O_WRONLY))) }
        let started: pid_t
        do {
            // Its own process group (when asked): Ctrl-C at the terminal reaches only us, and
            // we stop the child ourselves (it would otherwise die mid-answer).
            started = try ProcessSpawn.start(arguments, descriptors: descriptors, searchPath: true, ownProcessGroup: ownProcessGroup)
        } catch {
            close(toChild.read); close(toChild.write); close(fromChild.read); close(fromChild.write)
            throw ChildProcessError(description: "\(error)")
        }
        close(toChild.read)
        close(fromChild.write)
        pid = started
        input = toChild.write
        output = fromChild.read
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
        return ProcessSpawn.exitStatus(status)
    }
}
