#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

/// The processes belonging to one server directory. Every PostgreSQL process (postmaster,
/// checkpointer, backends) runs with the data directory as its working directory, and the
/// postmaster's pid is in `postmaster.pid`; so the processes whose working directory is in
/// the server's directory are exactly the server's, even after the postmaster was killed
/// and its children were left to notice. Linux only (`/proc`); elsewhere only the
/// postmaster is known.
enum ServerProcesses {
    /// Pids whose working directory is `directory` or below it.
    static func inside(_ directory: String) -> [pid_t] {
        #if os(Linux)
        var found: [pid_t] = []
        let own = getpid()
        for name in FileSystem.entries(of: "/proc") ?? [] {
            guard let pid = pid_t(name), pid != own, let cwd = link("/proc/\(name)/cwd") else { continue }
            // A removed directory reads as "<path> (deleted)".
            let path = cwd.hasSuffix(" (deleted)") ? String(cwd.dropLast(10)) : cwd
            if path == directory || path.hasPrefix(directory + "/") { found.append(pid) }
        }
        return found
        #else
        return []
        #endif
    }

    /// The postmaster's pid from `<data>/postmaster.pid`, when the file is there.
    static func postmaster(dataDirectory: String) -> pid_t? {
        guard let text = try? FileSystem.readText(dataDirectory + "/postmaster.pid"),
              let first = text.split(separator: "\n").first, let pid = pid_t(first), pid > 0
        else { return nil }
        return pid
    }

    static func isAlive(_ pid: pid_t) -> Bool {
        // Reaps it if it happens to be our child (we are a subreaper, or PID 1 in a container).
        var status: Int32 = 0
        _ = waitpid(pid, &status, WNOHANG)
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Waits up to `seconds` for every pid to end; returns those still alive.
    static func wait(for pids: [pid_t], seconds: Double) -> [pid_t] {
        var alive = pids.filter(isAlive)
        var waited = 0.0
        while !alive.isEmpty && waited < seconds {
            usleep(20_000)
            waited += 0.02
            alive = alive.filter(isAlive)
        }
        return alive
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
