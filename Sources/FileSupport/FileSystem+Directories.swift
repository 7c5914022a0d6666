#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Directories: creating, listing, removing, copying.
extension FileSystem {
    /// Creates one directory; its parent must exist.
    public static func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 else { throw FileSystemError.current("create directory", path) }
    }

    /// Refuses a directory the testbed writes into inside one of its own output directories
    /// (`plots/`, `plans/`, `repro/`) when it is a symbolic link: written through, the files
    /// would land wherever it points, outside the directory the command was given.
    public static func refuseLinkedSubdirectory(_ name: String, of directory: String) throws {
        let path = join(directory, name)
        guard isSymbolicLink(path) else { return }
        throw FileSystemError("write into", path, reason: "is a symbolic link, and the testbed writes only inside the directory it "
            + "was given; remove the link (a directory of its own is made in its place)")
    }

    /// Creates `path` and any missing parents; an existing directory is fine.
    public static func makeDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        var made: [String] = []
        for part in path.split(separator: "/") {
            prefix += part + "/"
            if isDirectory(prefix) { continue }
            if mkdir(prefix, 0o755) == 0 {
                made.append(prefix)
            } else if errno != EEXIST {
                throw FileSystemError.current("create directory", path)
            }
        }
        // A signal's actions may be removing the temporary this extends (renamed away first,
        // so the loop above made its root anew): undo that and wait for the end rather than
        // leave a tree behind. The signal thread marks the process dying before it removes
        // anything, so a root made after the removal is seen here.
        if !made.isEmpty && SignalCleanup.shared.mustStop {
            for directory in made.reversed() { rmdir(directory) }
            SignalCleanup.shared.parkIfDying()
        }
    }

    /// Names of the entries of a directory (without `.` and `..`), sorted; nil if it
    /// cannot be read.
    public static func entries(of path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// True if `path` is a directory with no entries.
    public static func isEmptyDirectory(_ path: String) -> Bool { entries(of: path)?.isEmpty ?? false }

    /// Removes `path` if it is an empty directory; does nothing otherwise.
    public static func removeEmptyDirectory(_ path: String) { _ = rmdir(path) }

    /// Removes a directory and the plain files in it (one level: a subdirectory keeps it,
    /// and so its parent, in place). Does nothing if `path` is missing.
    public static func removeDirectory(_ path: String) {
        // A link is not the directory it names: listing through it removed files elsewhere.
        if isSymbolicLink(path) { return }
        for name in entries(of: path) ?? [] { remove(path + "/" + name) }
        removeEmptyDirectory(path)
    }

    /// Removes `path` and everything under it (a file, or a directory tree); what cannot be
    /// removed stays. Symbolic links are removed, never followed.
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in entries(of: path) ?? [] { removeTree(join(path, name)) }
            removeEmptyDirectory(path)
        } else {
            remove(path)
        }
    }

    /// Copies a directory tree to `destination`, replacing a directory of plain files there.
    /// Only plain files and directories are copied (`refuseSpecialEntries`).
    public static func copyDirectory(_ source: String, to destination: String) throws {
        try refuseSpecialEntries(in: source)
        try copyPlainTree(source, to: destination)
    }

    /// Throws at the first entry under `directory` that is neither a plain file nor a
    /// directory: a symbolic link (one to `.` made a copy recurse until the path was too
    /// long), a FIFO (which blocks a read), a socket or a device.
    public static func refuseSpecialEntries(in directory: String) throws {
        guard let names = entries(of: directory) else { throw FileSystemError.current("read directory", directory) }
        for name in names {
            let path = join(directory, name)
            var info = stat()
            guard lstat(path, &info) == 0 else { throw FileSystemError.current("read", path) }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: try refuseSpecialEntries(in: path)
            case S_IFREG: continue
            case S_IFLNK: throw FileSystemError("copy", path, reason: "is a symbolic link; only plain files and directories are copied")
            default: throw FileSystemError("copy", path, reason: "is not a plain file or directory (a FIFO, socket or device)")
            }
        }
    }

    private static func copyPlainTree(_ source: String, to destination: String) throws {
        guard let names = entries(of: source) else { throw FileSystemError.current("read directory", source) }
        if kind(of: destination) == .directory { removeDirectory(destination) } else { remove(destination) }
        try makeDirectory(destination)
        for name in names {
            let from = source + "/" + name, to = destination + "/" + name
            if isDirectory(from) {
                try copyPlainTree(from, to: to)
            } else {
                try writeBytes(readBytes(from), to: to)
            }
        }
    }
}
