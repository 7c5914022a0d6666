#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the commands print: standard output for results, standard error for messages and
/// the progress bar. Tests capture both.
public struct Console {
    public var out: (String) -> Void
    public var err: (String) -> Void
    /// Redraw a progress bar on standard error (only when it is a terminal).
    public var showProgress: Bool

    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void, showProgress: Bool) {
        self.out = out
        self.err = err
        self.showProgress = showProgress
    }

    public static var standard: Console {
        Console(
            out: { text in print(text, terminator: "") },
            err: { text in
                var copy = text
                copy.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
            },
            showProgress: isatty(2) != 0)
    }

    /// Prints nothing (for tests that only look at files).
    public static var silent: Console { Console(out: { _ in }, err: { _ in }, showProgress: false) }
}
