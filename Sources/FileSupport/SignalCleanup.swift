#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Work that must happen if SIGINT, SIGTERM, SIGHUP or SIGPIPE ends the process: removing a
/// half-written temporary, stopping a server. The signal handler only wakes a thread, which
/// runs every registered action and then lets the signal end the process by its default
/// action (exit 130, 143, 129 or 141, as before). SIGPIPE is the reader of the output going
/// away (`testbed hunt … 2>&1 | head -1`): it killed the process at its next progress line
/// and left `hunt`'s `--out` holding only its lock. Only signals that still have their default action
/// are taken over: a program that handles or ignores one (`run`'s own handler during its
/// cells, a background job's ignored SIGINT) keeps it.
public final class SignalCleanup: @unchecked Sendable {
    public static let shared = SignalCleanup()

    private var mutex = pthread_mutex_t()
    private var actions: [Int: @Sendable () -> Void] = [:]
    private var nextToken = 0
    private var firstToken = 0
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
    /// Actions run in the order they were added, except that those added `first` run before
    /// every other (stopping a child process before the files it writes are removed).
    public func add(first: Bool = false, _ action: @escaping @Sendable () -> Void) -> Int {
        installIfNeeded()
        lockUnlessDying()
        defer { pthread_mutex_unlock(&mutex) }
        let token: Int
        if first {
            firstToken -= 1
            token = firstToken
        } else {
            nextToken += 1
            token = nextToken
        }
        actions[token] = action
        return token
    }

    /// Starts a child with `start` and, should a signal end the process before `body`
    /// returns, kills it (SIGKILL) and waits for it ahead of every other action, so it writes
    /// nothing after the process's end: a plotting script went on writing into a hunt's
    /// output for seconds after the hunt had died of SIGTERM.
    public func killingChild<T>(started start: () throws -> Int32, during body: () throws -> T) throws -> T {
        let token: Int = try holdingActions {
            let pid = try start()
            return add(first: true) {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
            }
        }
        defer { remove(token) }
        return try body()
    }

    /// Runs `body` (make a temporary, then `add` its removal) with the handlers installed and
    /// a signal's actions held back until it returns, so that no signal can end the process
    /// between the temporary appearing and its removal being registered.
    public func holdingActions<T>(_ body: () throws -> T) rethrows -> T {
        installIfNeeded()
        lockUnlessDying()
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }

    /// Takes the mutex, unless a signal is ending the process: its actions are taken, so
    /// an action registered now would never run, and the temporary it is for must not be
    /// made. The calling thread then waits for the end instead.
    private func lockUnlessDying() {
        pthread_mutex_lock(&mutex)
        guard mustStop else { return }
        pthread_mutex_unlock(&mutex)
        parkIfDying()
    }

    /// Whether a signal is ending the process and this thread is not the signal thread (whose
    /// actions go on, even one that registers one more): this thread must make nothing more.
    public var mustStop: Bool {
        isDyingOfASignal && pthread_equal(pthread_self(), signalThread) == 0
    }

    /// Starts the signal thread (and takes over the signals still at their default action),
    /// so that a handler installed later can hand a signal to it with `endBySignal`.
    public func prepare() { installIfNeeded() }

    /// For a signal handler of someone else's (see `prepare`): has the signal thread run
    /// every action and then end the process by `sig`'s default action. Async-signal-safe:
    /// one write to the thread's pipe, or, without the thread, the default action at once.
    public static func endBySignal(_ sig: Int32) {
        var byte = UInt8(truncatingIfNeeded: sig)
        if signalPipeWrite >= 0 && write(signalPipeWrite, &byte, 1) == 1 { return }
        signal(sig, SIG_DFL)
        raise(sig)
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

    /// Never returns while a signal is ending the process: for a thread whose work the
    /// signal's actions cut away (a temporary removed under it, a server stopped under a
    /// query), which must not report that as a failure of its own or exit first.
    public func parkIfDying() {
        while mustStop { pause() }
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

    /// The signals whose end runs the actions. A thread whose write raised SIGPIPE goes on
    /// with the write failed (EPIPE) until the signal thread ends the process.
    static let handledSignals = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]

    private static func installHandlers() {
        guard let fds = ProcessSpawn.pipe() else { return }
        signalPipeWrite = fds.write
        signalPipeRead = fds.read
        guard pthread_create(&signalThread, nil, { _ in
            SignalCleanup.signalLoop()
            return nil
        }, nil) == 0 else { return }
        pthread_detach(signalThread)
        // The main thread may reach `exit` while the signal thread runs its actions; the
        // process must still die of the signal.
        atexit { SignalCleanup.shared.parkIfDying() }
        for sig in handledSignals {
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
nonisolated(unsafe) private var signalThread = pthread_t()
