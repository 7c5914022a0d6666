#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system operations the modules need, on the C library rather than Foundation
/// (whose `Predicate` would clash with Relational's). Failures throw `FileSystemError`.
/// This file: questions about a path and names derived from it.
public enum FileSystem {
    public enum Kind: Sendable { case missing, file, directory, other }

    public static func kind(of path: String) -> Kind {
        guard let info = status(path) else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    public static func exists(_ path: String) -> Bool { kind(of: path) != .missing }

    public static func isDirectory(_ path: String) -> Bool { kind(of: path) == .directory }

    /// Whether the path itself is a symbolic link (the link is not followed).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Size in bytes, nil if the path cannot be examined.
    public static func size(of path: String) -> Int? { status(path).map { Int($0.st_size) } }

    /// The directory part of a path ("." when there is none).
    public static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// A sibling name for writing before the final rename: `.name.tmp-<pid>`.
    public static func temporarySibling(of path: String) -> String {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let parent = parentDirectory(of: trimmed)
        let base = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        return (trimmed.contains("/") ? parent + "/" : "") + ".\(base).tmp-\(getpid())"
    }

    private static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }
}
