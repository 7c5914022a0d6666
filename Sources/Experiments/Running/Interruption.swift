#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The signal that asked the run to stop (SIGINT or SIGTERM), 0 for none; set by the handler,
/// read between repetitions and cells. A second signal gets the default action (the handler
/// restores it), so a stuck run can still be killed.
nonisolated(unsafe) private var interruptRequested: sig_atomic_t = 0

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

    /// How a run that stopped early exits: 128 + the signal, as a shell reports one (130 for
    /// Ctrl-C, 143 for SIGTERM); 130 when a test stopped it.
    public static var exitStatus: Int32 { 128 + (interruptRequested != 0 ? interruptRequested : SIGINT) }
}
