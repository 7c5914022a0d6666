#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain files: reading, writing (directly or atomically), moving, removing.
extension FileSystem {
    /// The file's text, bytes that are not UTF-8 made U+FFFD (the lexer names where they
    /// stand); a file that begins with a UTF-16 (or UTF-32) byte-order mark is refused
    /// whole, as every other byte of it would be such a position or a NUL.
    public static func readText(_ path: String) throws -> String {
        let bytes = try readBytes(path)
        if bytes.count >= 2, bytes[0] == 0xFF && bytes[1] == 0xFE || bytes[0] == 0xFE && bytes[1] == 0xFF {
            let mark = bytes[0] == 0xFF ? "FF FE" : "FE FF"
            throw FileSystemError("read", path, reason: "is UTF-16 text (it begins with the byte-order mark \(mark)); save it as UTF-8")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The file's text, refusing bytes that are not UTF-8 (naming the first line that holds
    /// some) where `readText` would make them U+FFFD: for files whose every value is read
    /// back as data (a repro's tables), where a changed byte would be a changed value.
    public static func readUTF8Text(_ path: String) throws -> String {
        let bytes = try readBytes(path)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // A newline byte never occurs inside a multi-byte sequence, so lines validate alone.
        var line = 1
        for part in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(validating: part, as: UTF8.self) == nil { break }
            line += 1
        }
        throw FileSystemError("read", path, reason: "line \(line) holds bytes that are not UTF-8 text")
    }

    static func readBytes(_ path: String) throws -> [UInt8] {
        // Checked before opening: a pipe without a writer blocks `fopen`, and a device such as
        // `/dev/zero` never ends (a change script given as one read until memory ran out).
        if kind(of: path) == .other {
            throw FileSystemError("read", path, reason: "not a regular file (a device, pipe or socket)")
        }
        guard let file = fopen(path, "rb") else { throw FileSystemError.current("read", path) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        // A directory opens on Linux but does not read.
        guard ferror(file) == 0 else { throw FileSystemError.current("read", path) }
        return bytes
    }

    /// Writes `text` to `path`, creating or truncating it.
    public static func writeText(_ text: String, to path: String) throws {
        try writeBytes(text.utf8, to: path)
    }

    static func writeBytes<S: Sequence>(_ bytes: S, to path: String) throws where S.Element == UInt8 {
        let writer = try ByteFileWriter(path: path)
        writer.write(bytes)
        try writer.close()
    }

    /// Writes `text` to a temporary sibling renamed over `path`, so the file is whole or
    /// untouched; the temporary is removed on failure. Errors name `path`. With `replacing:
    /// false` a file at `path` is never replaced, also one that appeared meanwhile (two
    /// commands that each found it missing and wrote it at once both succeeded, the file
    /// holding one of them).
    public static func writeTextAtomically(_ text: String, to path: String, replacing: Bool = true) throws {
        let temporary = temporarySibling(of: path)
        do {
            try writeText(text, to: temporary)
            try rename(temporary, to: path, replacing: replacing)
        } catch let error as FileSystemError {
            remove(temporary)
            throw FileSystemError("write", path, reason: error.reason)
        }
    }

    /// Moves the file `source` to `destination` only when nothing is there (a hard link, which
    /// fails on an existing name, then the old name removed); otherwise `EEXIST`.
    private static func renameAsNew(_ source: String, to destination: String) throws {
        guard link(source, destination) == 0 else {
            let code = errno
            // A file system without hard links: the check and the move are two steps there.
            if code == EPERM || code == ENOTSUP || code == EOPNOTSUPP, kind(of: destination) == .missing {
                return try rename(source, to: destination)
            }
            throw FileSystemError("move", source, reason: code == EEXIST
                ? "'\(Printable.escaped(destination))' appeared meanwhile (another command writing it?); nothing was replaced"
                : FileSystemError.reason(code))
        }
        remove(source)
    }

    /// `replacing: false`: never over an existing `destination` (see `renameAsNew`).
    public static func rename(_ source: String, to destination: String, replacing: Bool = true) throws {
        guard replacing else { return try renameAsNew(source, to: destination) }
        guard systemRename(source, destination) == 0 else {
            throw FileSystemError.current("move", source, to: destination)
        }
    }

    /// Removes a file (not a directory); does nothing if it is missing.
    public static func remove(_ path: String) { _ = unlink(path) }
}

/// The C library's rename (the name is shadowed inside `FileSystem`).
private func systemRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
