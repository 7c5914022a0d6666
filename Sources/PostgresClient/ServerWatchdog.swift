#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

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
        guard let fds = ProcessSpawn.pipe() else {
            throw PostgresError(.startup, "cannot create the server watchdog's pipe: \(ProcessSpawn.errorText(errno))")
        }
        let arguments = ["/bin/sh", "-c", Self.script, "testbed-postgres-watchdog", directory]
        do {
            pid = try ProcessSpawn.start(arguments, descriptors: [
                (0, .copy(fds.read)), (1, .open("/dev/null", flags: O_WRONLY)), (2, .open("/dev/null", flags: O_WRONLY)),
            ])
        } catch {
            close(fds.read); close(fds.write)
            throw PostgresError(.startup, "cannot start the server watchdog (/bin/sh): \(error.reason)")
        }
        close(fds.read)
        pipeWrite = fds.write
    }

    /// Tells the watchdog the server is gone and reaps it.
    func finish() {
        guard pipeWrite >= 0 else { return }
        close(pipeWrite)
        pipeWrite = -1
        _ = ProcessSpawn.waitForExit(pid)
    }

    deinit { finish() }
}
