#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Work that must happen if SIGINT, SIGTERM or SIGHUP ends the process: removing a
/// half-written temporary, stopping a server. The signal handler only wakes a thread, which
/// runs every registered action and then lets the signal end the process by its default
/// action (exit 130 or 143, as before). Only signals that still have their default action
/// are taken over: a program that handles or ignores one (`run`'s own handler during its
/// cells, a background job's ignored SIGINT) keeps it.
public final class SignalCleanup: @unchecked Sendable {
    public static let shared = SignalCleanup()

    private var mutex = pthread_mutex_t()
    private var actions: [Int: @Sendable () -> Void] = [:]
    private var nextToken = 0
    private var installed = false
    /// The signal the process is dying of, once the signal thread has started its actions.
    private var dyingOf: Int32 = 0

    private init() { pthread_mutex_init(&mutex, nil) }

    /// Registers `action`; the token removes it again (`remove`) once it is no longer needed.
    public func add(_ action: @escaping @Sendable () -> Void) -> Int {
        pthread_mutex_lock(&mutex)
        nextToken += 1
        let token = nextToken
        actions[token] = action
        let first = !installed
        installed = true
        pthread_mutex_unlock(&mutex)
        if first { Self.installHandlers() }
        return token
    }

    public func remove(_ token: Int) {
        pthread_mutex_lock(&mutex)
        actions[token] = nil
        pthread_mutex_unlock(&mutex)
    }

    /// Runs `body` with `path` removed (as a whole tree) should a signal end the process
    /// meanwhile: for temporaries that are renamed into place or removed when `body` ends.
    public func removing<T>(_ path: String, during body: () throws -> T) rethrows -> T {
        let token = add { FileSystem.removeTree(path) }
        defer { remove(token) }
        return try body()
    }

    /// Whether a signal is ending the process (its actions have started).
    public var isDyingOfASignal: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return dyingOf != 0
    }

    /// Takes every action out, marking the process as dying of `sig`.
    private func takeActions(dyingOf sig: Int32) -> [@Sendable () -> Void] {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        dyingOf = sig
        let taken = actions.sorted { $0.key < $1.key }.map(\.value)
        actions = [:]
        return taken
    }

    private static func installHandlers() {
        guard let fds = ProcessSpawn.pipe() else { return }
        signalPipeWrite = fds.write
        signalPipeRead = fds.read
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { _ in
            SignalCleanup.signalLoop()
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

    /// The signal thread: run every action, then die of the signal by its default action.
    private static func signalLoop() {
        var byte: UInt8 = 0
        while true {
            let count = read(signalPipeRead, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            let sig = Int32(byte)
            for action in shared.takeActions(dyingOf: sig) { action() }
            signal(sig, SIG_DFL)
            kill(getpid(), sig)
        }
    }
}

nonisolated(unsafe) private var signalPipeWrite: Int32 = -1
nonisolated(unsafe) private var signalPipeRead: Int32 = -1
