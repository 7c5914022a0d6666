#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small shell process per server that removes the server if the testbed dies without
/// stopping it (SIGKILL, a crash, a second Ctrl-C): it waits for the end of a pipe whose
/// only writer is the testbed, so it wakes when the testbed closes it (after its own clean
/// stop, when there is nothing left to do) or when the kernel closes it with the process.
/// It ignores the terminal's signals, which reach it along with the testbed.
final class ServerWatchdog {
    private let pid: pid_t
    private var pipeWrite: Int32

    private static let script = """
        trap '' INT TERM HUP QUIT
        read -r _
        d="$1"
        [ -d "$d" ] || exit 0
        if [ -f "$d/data/postmaster.pid" ]; then
            pid=$(head -n 1 "$d/data/postmaster.pid")
            if [ -n "$pid" ] && kill -QUIT "$pid" 2>/dev/null; then
                i=0
                while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
                kill -KILL "$pid" 2>/dev/null
                sleep 0.5
            fi
        fi
        rm -rf "$d"
        """

    /// Starts watching `directory` (the server's top directory).
    init(directory: String) throws {
        var fds: [Int32] = [-1, -1]
        guard Subprocess.closeOnExecPipe(&fds) else {
            throw PostgresError(.startup, "cannot create the server watchdog's pipe: \(Subprocess.errorText(errno))")
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = ["/bin/sh", "-c", Self.script, "testbed-postgres-watchdog", directory]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", &actions, nil, argv, environ)
        close(fds[0])
        guard spawned == 0 else {
            close(fds[1])
            throw PostgresError(.startup, "cannot start the server watchdog (/bin/sh): \(Subprocess.errorText(spawned))")
        }
        pid = child
        pipeWrite = fds[1]
    }

    /// Tells the watchdog the server is gone and reaps it.
    func finish() {
        guard pipeWrite >= 0 else { return }
        close(pipeWrite)
        pipeWrite = -1
        _ = Subprocess.waitForExit(pid)
    }

    deinit { finish() }
}
