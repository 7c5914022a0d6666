#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the writers need, on the C library (Foundation's `Predicate`
/// would clash with Relational's). Errors name the path and the system's reason.
enum FileOutput {
    enum Kind { case missing, file, directory, other }

    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// A sibling name for writing before the final rename: `.name.tmp-<pid>`.
    static func temporarySibling(of path: String) -> String {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let parent = parentDirectory(of: trimmed)
        let base = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        return (trimmed.contains("/") ? parent + "/" : "") + ".\(base).tmp-\(getpid())"
    }

    static func reason() -> String { String(cString: strerror(errno)) }

    static func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 else {
            throw WorkloadError.output("cannot create directory '\(path)': \(reason())")
        }
    }

    static func rename(_ from: String, to: String) throws {
        guard systemRename(from, to) == 0 else {
            throw WorkloadError.output("cannot move '\(from)' to '\(to)': \(reason())")
        }
    }

    static func remove(_ path: String) { _ = unlink(path) }
    static func removeDirectory(_ path: String) { _ = rmdir(path) }

    /// True if `path` is a directory with no entries.
    static func isEmptyDirectory(_ path: String) -> Bool {
        guard let dir = opendir(path) else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { return false }
        }
        return true
    }

    /// Names of the entries of a directory, sorted; nil if it cannot be read.
    static func entries(of path: String) -> [String]? {
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

    static func readText(_ path: String) throws -> String {
        guard let file = fopen(path, "rb") else {
            throw WorkloadError.output("cannot read '\(path)': \(reason())")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, file) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private func systemRename(_ from: String, _ to: String) -> Int32 {
    #if canImport(Glibc)
    return Glibc.rename(from, to)
    #elseif canImport(Musl)
    return Musl.rename(from, to)
    #else
    return Darwin.rename(from, to)
    #endif
}

/// Buffered binary writer to one file; `close()` reports any write error.
final class ByteFileWriter {
    let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var buffer: [UInt8] = []
    private var failed = false

    init(path: String) throws {
        self.path = path
        guard let file = fopen(path, "wb") else {
            throw WorkloadError.output("cannot create '\(path)': \(FileOutput.reason())")
        }
        self.file = file
        buffer.reserveCapacity(1 << 20)
    }

    deinit { if let file { fclose(file) } }

    @inline(__always)
    func write(byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= 1 << 20 { flush() }
    }

    func write<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { flush() }
    }

    func write(_ text: String) { write(text.utf8) }

    private func flush() {
        guard let file, !buffer.isEmpty else { return }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != buffer.count { failed = true }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        flush()
        guard let file else { return }
        self.file = nil
        if fclose(file) != 0 || failed {
            throw WorkloadError.output("cannot write '\(path)': \(FileOutput.reason())")
        }
    }
}
