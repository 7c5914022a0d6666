#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

/// Whole-file reads and writes for the stores, on the C library: one `open`, one `fstat`
/// and reads straight into the result (row files are small and there are many of them).
/// No `fsync`: a save survives a crash of the process (the renames are atomic), not
/// necessarily a power loss.
enum PlistFiles {
    /// The file's bytes, or nil when it does not exist.
    static func readIfPresent(_ path: String) throws -> [UInt8]? {
        // Non-blocking, so that a pipe put where a file belongs is refused below rather than
        // waiting for a writer for ever; a regular file reads the same either way.
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw PlistError(path, "cannot be read: " + reason())
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PlistError(path, "cannot be read: " + reason()) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw PlistError(path, "is not a plain file") }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress.map { $0 + done }, size - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw PlistError(path, "cannot be read: " + (n == 0 ? "it shrank while being read" : reason())) }
            done += n
        }
        return bytes
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let bytes = try readIfPresent(path) else { throw PlistError(path, "does not exist") }
        return bytes
    }

    /// Creates or truncates `path` and writes `bytes`.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw PlistError(path, "cannot be written: " + reason()) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress.map { $0 + done }, bytes.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = reason()
                close(fd)
                throw PlistError(path, "cannot be written: " + why)
            }
            done += n
        }
        guard close(fd) == 0 else { throw PlistError(path, "cannot be written: " + reason()) }
    }

    /// Writes a temporary sibling and renames it over `path`: the file is whole or untouched.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let temporary = FileSystem.temporarySibling(of: path)
        do {
            try write(bytes, to: temporary)
            try move(temporary, to: path)
        } catch {
            FileSystem.remove(temporary)
            throw error
        }
    }

    static func move(_ source: String, to destination: String) throws {
        guard rename(source, destination) == 0 else {
            throw PlistError(destination, "cannot be moved into place from \(Printable.quoted(source)): " + reason())
        }
    }

    /// Removes a file; a missing one is fine.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw PlistError(path, "cannot be removed: " + reason()) }
    }

    static func makeDirectories(_ path: String) throws {
        do { try FileSystem.makeDirectories(path) } catch { throw PlistError(path, "cannot be created: \(error)") }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}

/// The C library's write (the name is shadowed inside `PlistFiles`).
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }

/// The C library's read (the name is shadowed inside `PlistFiles`).
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
