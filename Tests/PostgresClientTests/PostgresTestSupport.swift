import Glibc
import PostgresClient
import XCTest

/// What the PostgreSQL tests share: skipping (only when PostgreSQL is not installed, and
/// never when TESTBED_REQUIRE_ENGINES=1, as in scripts/test.sh) and a scratch directory
/// under /tmp in which servers are made, so a test can see that nothing is left there.
enum PostgresTestSupport {
    static func requireInstallation() throws {
        do {
            _ = try PostgresInstallation.locate()
        } catch let error as PostgresError where error.kind == .notInstalled {
            if getenv("TESTBED_REQUIRE_ENGINES").map({ String(cString: $0) }) == "1" {
                XCTFail("TESTBED_REQUIRE_ENGINES=1 but: \(error)")
                throw error
            }
            throw XCTSkip("PostgreSQL is not installed: \(error)")
        }
    }

    /// A fresh directory that the server's unprivileged user can reach.
    static func scratchDirectory() throws -> String {
        var template = Array("/tmp/testbed-pgtest-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw PostgresError(.usage, "mkdtemp failed") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(path, 0o755)
        return path
    }

    static func entries(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func removeTree(_ path: String) {
        _ = system("rm -rf '\(path)'")
    }

    /// Processes that mention `path` on their command line or work inside it: what a stray
    /// server would look like. Read from `ps`, independently of the client's own /proc scan.
    static func processes(mentioning path: String) -> [String] {
        var found: [String] = []
        guard let pipe = popen("ps -eo pid=,args= 2>/dev/null", "r") else { return ["ps failed"] }
        var line = [CChar](repeating: 0, count: 8192)
        while fgets(&line, Int32(line.count), pipe) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.contains(path) && !text.contains("ps -eo") { found.append(text) }
        }
        pclose(pipe)
        for name in entries("/proc") where Int32(name) != nil {
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/\(name)/cwd", &buffer, buffer.count - 1)
            guard count > 0 else { continue }
            let cwd = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if cwd.hasPrefix(path) { found.append("pid \(name) working in \(cwd)") }
        }
        return found
    }

    /// Waits a little for processes to go (a server's children end just after it).
    static func strayProcesses(_ path: String) -> [String] {
        for _ in 0..<50 {
            if processes(mentioning: path).isEmpty { return [] }
            usleep(100_000)
        }
        return processes(mentioning: path)
    }
}
