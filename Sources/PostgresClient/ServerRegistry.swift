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
/// early) and on SIGINT, SIGTERM or SIGHUP while those have their default action (the
/// signal handler only wakes a thread, which stops the servers and then lets the signal
/// end the process as it would have). A program that handles a signal itself keeps its
/// handler: it is expected to stop its servers on the normal path. What escapes both
/// (SIGKILL, a crash) is left to each server's watchdog.
final class ServerRegistry: @unchecked Sendable {
    static let shared = ServerRegistry()

    private var mutex = pthread_mutex_t()
    private var servers: [ObjectIdentifier: PostgresServer] = [:]
    private var installed = false
    /// The signal the signal thread is dying of, once it has started stopping servers.
    private var dyingOf: Int32 = 0

    private init() { pthread_mutex_init(&mutex, nil) }

    func add(_ server: PostgresServer) {
        pthread_mutex_lock(&mutex)
        servers[ObjectIdentifier(server)] = server
        let first = !installed
        installed = true
        pthread_mutex_unlock(&mutex)
        if first { Self.installHandlers() }
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

    private func markDying(of sig: Int32) {
        pthread_mutex_lock(&mutex)
        dyingOf = sig
        pthread_mutex_unlock(&mutex)
    }

    private var isDyingOfASignal: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return dyingOf != 0
    }

    private static func installHandlers() {
        atexit {
            ServerRegistry.shared.stopAll()
            // Stopping the servers on a signal breaks the connection under a running query, so
            // the main thread may reach `exit` with an error status first; the process must
            // still die of the signal, so wait here for the signal thread to raise it.
            while ServerRegistry.shared.isDyingOfASignal { pause() }
        }
        guard let fds = ProcessSpawn.pipe() else { return }
        signalPipeWrite = fds.write
        signalPipeRead = fds.read
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { _ in
            ServerRegistry.signalLoop()
            return nil
        }, nil) == 0 else { return }
        pthread_detach(thread)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(sig) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(signalPipeWrite, &byte, 1)
            }
            // Somebody handles or ignores this signal already: leave it to them.
            if previous != nil { signal(sig, previous) }
        }
    }

    /// The signal thread: stop every server, then die of the signal by its default action.
    private static func signalLoop() {
        var byte: UInt8 = 0
        while true {
            let count = read(signalPipeRead, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            let sig = Int32(byte)
            shared.markDying(of: sig)
            shared.stopAll()
            signal(sig, SIG_DFL)
            kill(getpid(), sig)
        }
    }
}

nonisolated(unsafe) private var signalPipeWrite: Int32 = -1
nonisolated(unsafe) private var signalPipeRead: Int32 = -1
