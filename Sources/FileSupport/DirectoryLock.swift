#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Another process holds a directory's lock: which one, as its lock file says.
public struct DirectoryLockedError: Error, Equatable, CustomStringConvertible {
    public let directory: String
    /// The lock file's text, e.g. `pid 4242 on host build-1`, or empty if unreadable.
    public let holder: String

    public var description: String {
        "\(Printable.quoted(directory)) is in use by another testbed process (" + holderText
            + "); wait for it to finish or stop it, then try again"
    }

    /// The lock file names the last process that took the lock to write; one that only
    /// reads the directory (a merge reading its shards) writes nothing there, so a named pid
    /// that has ended on this host is said to be the last writer, not the holder (it was
    /// named as the holder, which could lead someone to stop a process that reused the pid).
    private var holderText: String {
        guard !holder.isEmpty else { return "holder unknown" }
        let words = holder.split(separator: " ")
        guard words.count == 5, words[0] == "pid", let pid = pid_t(words[1]), words[3] == "host",
            String(words[4]) == Self.hostName, kill(pid, 0) != 0, errno == ESRCH
        else { return Printable.escaped(holder) }
        return "held by a process that reads it, such as a merge; its last writer, " + Printable.escaped(holder) + ", has ended"
    }

    public static var hostName: String {
        var host = [CChar](repeating: 0, count: 256)
        return gethostname(&host, host.count - 1) == 0
            ? String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
    }
}

/// An exclusive `flock` on `DIRECTORY/run.lock`, held while the owner lives (or until
/// `release()`), so two processes cannot run or resume into one directory. The file names
/// the holder (pid and host). It stays in the directory when released: deleting a lock
/// file lets a third process lock a fresh inode while a second still waits on the old one.
public final class DirectoryLock {
    public static let fileName = "run.lock"
    public let path: String
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock of `directory` without waiting. `create: false` only locks an existing
    /// lock file (returning nil when there is none), read-only, so checking a directory (or
    /// keeping a run from starting in one that is read) changes nothing.
    public static func acquire(_ directory: String, create: Bool = true) throws -> DirectoryLock? {
        let path = FileSystem.join(directory, fileName)
        // O_NONBLOCK: a FIFO in the lock's place would otherwise block the open until a
        // writer came; it is refused below, as a lock must be a plain file.
        let fd = open(path, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_CLOEXEC | O_NONBLOCK, 0o644)
        if fd < 0 {
            if !create && errno == ENOENT { return nil }
            throw FileSystemError.current("open lock file", path)
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw FileSystemError("open lock file", path, reason: "is not a regular file (a device, pipe or socket)")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = readHolder(fd)
            close(fd)
            if code == EWOULDBLOCK { throw DirectoryLockedError(directory: directory, holder: holder) }
            throw FileSystemError("lock", path, reason: FileSystemError.reason(code))
        }
        let lock = DirectoryLock(path: path, descriptor: fd)
        if create { lock.writeHolder() }
        return lock
    }

    /// Removes the lock file of `directory` if it holds nothing else, and then the directory
    /// unless `keepDirectory`: a claimed output directory whose owner is ending before
    /// writing anything into it is left as it was found.
    public static func removeIfOnlyLocked(_ directory: String, keepDirectory: Bool) {
        guard FileSystem.entries(of: directory) == [fileName] else { return }
        FileSystem.remove(FileSystem.join(directory, fileName))
        if !keepDirectory { FileSystem.removeEmptyDirectory(directory) }
    }

    /// Gives the lock up (also done when the lock is freed).
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// `pid N on host H`, written over the file's previous text.
    private func writeHolder() {
        let text = Array("pid \(getpid()) on host \(DirectoryLockedError.hostName)\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    private static func readHolder(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "" }
        var text = String(decoding: buffer[0..<count], as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
