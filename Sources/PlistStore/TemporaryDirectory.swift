#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

/// A fresh directory under `$TMPDIR` (or `/tmp`), removed with everything in it when the
/// object goes away: where a backend's property-list files live while a dataset is loaded.
public final class TemporaryDirectory {
    public let path: String

    public init(prefix: String = "testbed-plist") throws {
        var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if base.isEmpty { base = "/tmp" }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/\(prefix)-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else { throw PlistError(base, "cannot hold a temporary directory: " + String(cString: strerror(errno))) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { PlistTree.remove(path) }
}

/// Removing a directory tree (the stores' directories are two levels deep).
public enum PlistTree {
    /// Removes `path` and everything under it; what cannot be removed stays. Symbolic
    /// links are removed, never followed.
    public static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in FileSystem.entries(of: path) ?? [] { remove(FileSystem.join(path, name)) }
            FileSystem.removeEmptyDirectory(path)
        } else {
            FileSystem.remove(path)
        }
    }
}
