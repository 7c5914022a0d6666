#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file operation that failed: what was being done, to which path, and the system's
/// reason, e.g. `cannot create directory 'out': Permission denied`.
public struct FileSystemError: Error, Equatable, CustomStringConvertible {
    /// What was being done: "read", "write", "create directory", "move", ...
    public let action: String
    public let path: String
    /// The second path of a two-path operation (where a file was being moved).
    public let destination: String?
    /// The system's reason (`strerror`).
    public let reason: String

    public init(_ action: String, _ path: String, to destination: String? = nil, reason: String) {
        self.action = action
        self.path = path
        self.destination = destination
        self.reason = reason
    }

    /// The failure the C library just reported through `errno`.
    static func current(_ action: String, _ path: String, to destination: String? = nil) -> FileSystemError {
        FileSystemError(action, path, to: destination, reason: reason(errno))
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    public var description: String {
        "cannot \(action) '\(path)'" + (destination.map { " to '\($0)'" } ?? "") + ": \(reason)"
    }
}
