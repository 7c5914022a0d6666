#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Set by the SIGINT handler; read between repetitions and cells. A second Ctrl-C gets the
/// default action (the handler restores it), so a stuck run can still be killed.
nonisolated(unsafe) private var interruptRequested: sig_atomic_t = 0

public enum Interruption {
    /// Installs the Ctrl-C handler for the duration of a run.
    public static func install() {
        interruptRequested = 0
        signal(SIGINT) { _ in
            interruptRequested = 1
            signal(SIGINT, SIG_DFL)
        }
    }

    public static func uninstall() { signal(SIGINT, SIG_DFL) }

    public static var requested: Bool { interruptRequested != 0 }
}
