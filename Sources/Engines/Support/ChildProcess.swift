// A child process spoken to in lines: its standard input and output on pipes, its standard
// error shared with ours. Used for the DuckDB helper and for measurements that need a
// fresh process (resident memory). A signal that ends the testbed kills it (SignalCleanup):
// a child that is not reading its input would otherwise outlive us.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    /// Whether the child wrote no line within the time `readLine(within:)` allowed.
    public var timedOut = false
}

public final class ChildProcess {
    public let arguments: [String]
    public let pid: pid_t
    private var input: Int32
    private let output: Int32
    private var pending: [UInt8] = []
    private var exited = false
    /// Removes the kill registered with `SignalCleanup` (in `finish`).
    private let cleanup: Int

    /// Starts `arguments[0]` (searched on PATH) with the remaining arguments.
    public init(arguments: [String], ownProcessGroup: Bool = false, quiet: Bool = false) throws {
        guard !arguments.isEmpty else { throw ChildProcessError(description: "no program to start") }
        self.arguments = arguments
        // Close-on-exec ends: a write end leaked into a later child would keep a helper
        // from ever seeing the end of its input.
        guard let toChild = ProcessSpawn.pipe() else { throw ChildProcessError(description: "pipe: errno \(errno)") }
        guard let fromChild = ProcessSpawn.pipe() else {
            close(toChild.read); close(toChild.write)
            throw ChildProcessError(description: "pipe: errno \(errno)")
        }
        var descriptors: [(Int32, ProcessSpawn.Descriptor)] = [(0, .copy(toChild.read)), (1, .copy(fromChild.write))]
        if quiet { descriptors.append((2, .open("/dev/null", flags: O_WRONLY))) }
        let started: (pid: pid_t, cleanup: Int)
        do {
            // Held so that no signal falls between the start and the kill being registered.
            started = try SignalCleanup.shared.holdingActions {
                // Its own process group (when asked): Ctrl-C at the terminal reaches only us,
                // and we stop the child ourselves (it would otherwise die mid-answer).
                let pid = try ProcessSpawn.start(arguments, descriptors: descriptors, searchPath: true, ownProcessGroup: ownProcessGroup)
                return (pid, SignalCleanup.shared.add(first: true) {
                    kill(pid, SIGKILL)
                    var status: Int32 = 0
                    _ = waitpid(pid, &status, 0)
                })
            }
        } catch {
            close(toChild.read); close(toChild.write); close(fromChild.read); close(fromChild.write)
            throw ChildProcessError(description: "\(error)")
        }
        close(toChild.read)
        close(fromChild.write)
        pid = started.pid
        cleanup = started.cleanup
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
            // A helper that died must give us an error on write, not end the process.
            let written = bytes[offset...].withUnsafeBytes { PipeWrite.write(input, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ChildProcessError(description: "\(arguments[0]) stopped reading its input (errno \(errno))")
            }
            offset += written
        }
    }

    /// The next line of the child's standard output (without its line feed), or nil at its
    /// end. With `seconds`, a child that has written no whole line by then is an error whose
    /// `timedOut` is set (the child is left running; `finish(grace:)` ends it).
    public func readLine(within seconds: Double? = nil) throws -> String? {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = seconds.map { ContinuousClock.now + .milliseconds(Int64(($0 * 1000).rounded(.up))) }
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            if let deadline, !(try waitForOutput(until: deadline)) {
                throw ChildProcessError(description: "\(arguments[0]) wrote nothing within \(seconds ?? 0) s", timedOut: true)
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

    /// Whether the child's output can be read before `deadline`.
    private func waitForOutput(until deadline: ContinuousClock.Instant) throws -> Bool {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let (whole, fraction) = left.components
            let milliseconds = Int32(clamping: whole * 1000 + fraction / 1_000_000_000_000_000 + 1)
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR {
                throw ChildProcessError(description: "waiting for \(arguments[0]): errno \(errno)")
            }
        }
    }

    /// Closes the child's input and waits for it to exit; returns its exit status. With
    /// `grace`, a child still running after that many seconds is killed (SIGKILL).
    @discardableResult
    public func finish(grace: Double? = nil) -> Int32 {
        guard !exited else { return 0 }
        exited = true
        // Removed once the child is reaped: a signal while we wait must still kill it.
        defer { SignalCleanup.shared.remove(cleanup) }
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
