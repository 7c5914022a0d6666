#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

/// A fresh empty directory for one test, `/tmp/filesupport-tests-<pid>-<label>`.
func scratchDirectory(_ label: String) throws -> String {
    let path = "/tmp/filesupport-tests-\(getpid())-\(label)"
    removeTree(path)
    try FileSystem.makeDirectories(path)
    return path
}

/// Removes a scratch tree two levels deep (enough for these tests).
func removeTree(_ path: String) {
    for name in FileSystem.entries(of: path) ?? [] where FileSystem.isDirectory(path + "/" + name) {
        FileSystem.removeDirectory(path + "/" + name)
    }
    FileSystem.removeDirectory(path)
}
