#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

/// A fresh directory under `$TMPDIR` (or `/tmp`), removed with everything in it when the
/// object goes away or a signal ends the process: where a backend's property-list files
/// live while a dataset is loaded.
public final class TemporaryDirectory {
    public let path: String
    /// Removes the directory should a signal end the process first.
    private let cleanup: Int

    public init(prefix: String = "testbed-plist") throws {
        var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if base.isEmpty { base = "/tmp" }
        let origin = getenv("TMPDIR").map { $0.pointee != 0 } == true ? " (TMPDIR)" : ""
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/\(prefix)-XXXXXX").utf8CString)
        // Made and registered for removal with no signal able to fall in between.
        (path, cleanup) = try SignalCleanup.shared.holdingActions {
            let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
            guard made != nil else {
                throw PlistError(base, "cannot hold a temporary directory\(origin): " + String(cString: strerror(errno)))
            }
            let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (directory, SignalCleanup.shared.add { SignalCleanup.removeTreeBeingWritten(directory) })
        }
    }

    deinit {
        SignalCleanup.shared.remove(cleanup)
        FileSystem.removeTree(path)
    }
}
