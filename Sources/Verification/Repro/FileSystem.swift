#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations repro directories need, on the C library (Foundation's `Predicate`
/// would clash with Relational's). Errors name the path and the system's reason.
enum FileSystem {
    static func reason() -> String { String(cString: strerror(errno)) }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` and any missing parents.
    static func makeDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part + "/"
            if isDirectory(prefix) { continue }
            guard mkdir(prefix, 0o755) == 0 || errno == EEXIST else {
                throw VerificationError.repro(path: path, message: "cannot create directory: \(reason())")
            }
        }
    }

    static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "wb") else {
            throw VerificationError.repro(path: path, message: "cannot write: \(reason())")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else {
            throw VerificationError.repro(path: path, message: "write failed: \(reason())")
        }
    }

    static func read(_ path: String) throws -> String {
        guard let file = fopen(path, "rb") else {
            throw VerificationError.repro(path: path, message: "cannot read: \(reason())")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBufferPointer { fread($0.baseAddress, 1, $0.count, file) }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func remove(_ path: String) { _ = unlink(path) }

    /// Removes a directory and the plain files in it (one level, as repro directories are).
    static func removeDirectory(_ path: String) {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(path)
    }

    static func rename(_ from: String, to: String) throws {
        guard systemRename(from, to) == 0 else {
            throw VerificationError.repro(path: to, message: "cannot move '\(from)' here: \(reason())")
        }
    }

    static var processID: Int32 { getpid() }
}

/// The C library's rename (the name is shadowed inside `FileSystem`).
private func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
