#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

/// The servers this process has running, so that they are stopped and removed when the
/// process ends some other way than through `stop()`: at `exit` (an error path that exits
/// early) and on SIGINT, SIGTERM or SIGHUP while those have their default action (through
/// `SignalCleanup`, whose thread stops the servers and then lets the signal end the process
/// as it would have). A program that handles a signal itself keeps its handler: it is
/// expected to stop its servers on the normal path. What escapes both (SIGKILL, a crash) is
/// left to each server's watchdog.
final class ServerRegistry: @unchecked Sendable {
    static let shared = ServerRegistry()

    private var mutex = pthread_mutex_t()
    private var servers: [ObjectIdentifier: PostgresServer] = [:]
    private var installed = false

    private init() { pthread_mutex_init(&mutex, nil) }

    func add(_ server: PostgresServer) {
        pthread_mutex_lock(&mutex)
        servers[ObjectIdentifier(server)] = server
        let first = !installed
        installed = true
        pthread_mutex_unlock(&mutex)
        if first { Self.installCleanup() }
    }

    func remove(_ server: PostgresServer) {
        pthread_mutex_lock(&mutex)
        servers[ObjectIdentifier(server)] = nil
        pthread_mutex_unlock(&mutex)
    }

    func stopAll() {
        pthread_mutex_lock(&mutex)
        let running = Array(servers.values)
        pthread_mutex_unlock(&mutex)
        for server in running { server.stop() }
    }

    private static func installCleanup() {
        atexit {
            ServerRegistry.shared.stopAll()
            // Stopping the servers on a signal breaks the connection under a running query, so
            // the main thread may reach `exit` with an error status first; the process must
            // still die of the signal (SignalCleanup waits at exit for that too).
            SignalCleanup.shared.parkIfDying()
        }
        _ = SignalCleanup.shared.add { ServerRegistry.shared.stopAll() }
    }
}
