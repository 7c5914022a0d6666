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

    private init() {
        // Recursive, so that `holdingActions` may call `add` and `remove` inside.
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(&mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    /// Registers `action`; the token removes it again (`remove`) once it is no longer needed.
    public func add(_ action: @escaping @Sendable () -> Void) -> Int {
        installIfNeeded()
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        nextToken += 1
        actions[nextToken] = action
        return nextToken
    }

    /// Runs `body` (make a temporary, then `add` its removal) with the handlers installed and
    /// a signal's actions held back until it returns, so that no signal can end the process
    /// between the temporary appearing and its removal being registered.
    public func holdingActions<T>(_ body: () throws -> T) rethrows -> T {
        installIfNeeded()
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }

    private func installIfNeeded() {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !installed else { return }
        installed = true
        Self.installHandlers()
    }

    public func remove(_ token: Int) {
        pthread_mutex_lock(&mutex)
        actions[token] = nil
        pthread_mutex_unlock(&mutex)
    }

    /// Runs `body` with `path` removed (as a whole tree) should a signal end the process
    /// meanwhile: for temporaries that are made inside `body` and renamed into place or
    /// removed when it ends. Registered before `body` runs, so no signal can fall between
    /// the temporary appearing and its removal being known.
    public func removing<T>(_ path: String, during body: () throws -> T) rethrows -> T {
        let token = add { Self.removeTreeBeingWritten(path) }
        defer { remove(token) }
        return try body()
    }

    /// Removes `path` while another thread may still be creating files in it: renamed away
    /// first, so that no file can be made in it after its entries were listed (a plain
    /// `removeTree` then finds it not empty and leaves it).
    public static func removeTreeBeingWritten(_ path: String) {
        let away = FileSystem.temporarySibling(of: path)
        FileSystem.removeTree(rename(path, away) == 0 ? away : path)
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
