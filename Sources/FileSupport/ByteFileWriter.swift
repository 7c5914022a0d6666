#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered binary writer to one file; `close()` reports any write error.
public final class ByteFileWriter {
    public let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var buffer: [UInt8] = []
    /// The first write failure's `errno`, reported by `close()`.
    private var failure: Int32?

    /// Creates or truncates the file at `path`.
    public init(path: String) throws {
        self.path = path
        guard let file = fopen(path, "wb") else { throw FileSystemError.current("create", path) }
        self.file = file
        buffer.reserveCapacity(1 << 20)
    }

    deinit { if let file { fclose(file) } }

    @inline(__always)
    public func write(byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= 1 << 20 { flush() }
    }

    public func write<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { flush() }
    }

    public func write(_ text: String) { write(text.utf8) }

    private func flush() {
        guard let file, !buffer.isEmpty else { return }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != buffer.count && failure == nil { failure = errno }
        buffer.removeAll(keepingCapacity: true)
    }

    public func close() throws {
        flush()
        guard let file else { return }
        self.file = nil
        let closed = fclose(file)
        if let code = failure ?? (closed != 0 ? errno : nil) {
            throw FileSystemError("write", path, reason: FileSystemError.reason(code))
        }
    }
}
