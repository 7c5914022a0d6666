#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport
import Foundation

/// The signal that asked the run to stop (SIGINT or SIGTERM), 0 for none; set by the handler,
/// read between repetitions and cells. A second signal gets the default action (the handler
/// restores it), so a stuck run can still be killed.
nonisolated(unsafe) private var interruptRequested: sig_atomic_t = 0

/// Set while `endingAtOnce` runs its body: a signal then ends the process at once.
nonisolated(unsafe) private var endAtOnce: sig_atomic_t = 0

/// The handlers `install` replaced, put back by `uninstall` (a PostgreSQL server's cleanup
/// handler, see `ServerRegistry`, stays in place after the run).
nonisolated(unsafe) private var replacedHandlers: [(Int32, (@convention(c) (Int32) -> Void)?)] = []

public enum Interruption {
    /// The signals a run stops on, keeping its completed cells: Ctrl-C, and SIGTERM (`kill`,
    /// `timeout`).
    static let signals = [SIGINT, SIGTERM]

    /// Installs the handlers for the duration of a run.
    public static func install() {
        interruptRequested = 0
        replacedHandlers = signals.map { sig in
            (sig, signal(sig) { received in
                if endAtOnce != 0 { return SignalCleanup.endBySignal(received) }
                interruptRequested = received
                signal(received, SIG_DFL)
            })
        }
    }

    public static func uninstall() {
        for (sig, handler) in replacedHandlers { signal(sig, handler) }
        replacedHandlers = []
    }

    public static var requested: Bool { interruptRequested != 0 }

    /// Runs `body`, a step with nothing to keep if it is cut short (generating or loading a
    /// dataset, starting an engine: minutes at a million rows), so that a signal meanwhile
    /// ends the process at once instead of when `body` returns: `SignalCleanup`'s actions
    /// run (temporaries, servers), `notice` is printed on stderr, and the process dies of
    /// the signal (130 or 143). What the run kept is on disk already, for `--resume`.
    static func endingAtOnce<T>(notice: String, _ body: () throws -> T) rethrows -> T {
        SignalCleanup.shared.prepare()
        let token = SignalCleanup.shared.add { FileHandle.standardError.write(Data(notice.utf8)) }
        endAtOnce = 1
        defer {
            endAtOnce = 0
            SignalCleanup.shared.remove(token)
        }
        do {
            return try body()
        } catch {
            // The signal's actions removed what `body` was writing: not a failure of the run.
            SignalCleanup.shared.parkIfDying()
            throw error
        }
    }

    /// How a run that stopped early exits: 128 + the signal, as a shell reports one (130 for
    /// Ctrl-C, 143 for SIGTERM); 130 when a test stopped it.
    public static var exitStatus: Int32 { 128 + (interruptRequested != 0 ? interruptRequested : SIGINT) }
}
