#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to a pipe whose reader may be gone (a helper process that died) without SIGPIPE:
/// the write fails with EPIPE instead. The process's own SIGPIPE is left as it is, so a
/// closed standard output still ends the command through `SignalCleanup` (exit 141);
/// ignoring SIGPIPE process-wide for a helper's pipe made such a command run to its end.
public enum PipeWrite {
    /// `write(2)` of `count` bytes to `descriptor`: the count written, or -1 with `errno`
    /// set (EPIPE when nothing reads the pipe).
    public static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        _ = fcntl(descriptor, F_SETNOSIGPIPE, 1)
        return Darwin.write(descriptor, bytes, count)
        #else
        // Linux has no such switch for pipes. A write's SIGPIPE goes to the writing thread,
        // so it is blocked on this thread alone for the write, and the one the write raised
        // is taken before the mask is restored.
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        // A SIGPIPE already waiting was sent by someone else (`kill -PIPE`): it stays.
        var pending = sigset_t()
        sigpending(&pending)
        let waitingBefore = sigismember(&pending, SIGPIPE) == 1
        #if canImport(Glibc)
        let written = Glibc.write(descriptor, bytes, count)
        #else
        let written = Musl.write(descriptor, bytes, count)
        #endif
        let failure = errno
        if written < 0 && failure == EPIPE && !waitingBefore {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&pipeOnly, nil, &now) < 0 && errno == EINTR {}
        }
        errno = failure
        return written
        #endif
    }
}
