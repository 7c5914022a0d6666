#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PostgresClient

/// Checks of a config's PostgreSQL settings before anything starts: the name must be one of
/// the server's settings (as `postgres --describe-config` lists them, which works without a
/// cluster and as root); the value is checked by the server itself when the engine starts.
enum PostgresSettings {
    static func problem(name: String, value: String) -> String? {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else {
            return "'\(name)' is not a PostgreSQL setting name"
        }
        if value.isEmpty { return "no value for \(name)" }
        guard let known = knownNames, !name.contains(".") else { return nil }  // dotted: an extension's
        if known.contains(name.lowercased()) { return nil }
        let close = known.filter { $0.hasPrefix(String(name.lowercased().prefix(6))) }.sorted().prefix(3)
        return "unknown PostgreSQL setting '\(name)'" + (close.isEmpty ? "" : " (similar: \(close.joined(separator: ", ")))")
    }

    /// The install hint when the server programs are missing, or why no user can run the
    /// server (`TESTBED_POSTGRES_USER`), else nil.
    static func missing() -> String? {
        do {
            _ = try PostgresInstallation.locate()
        } catch {
            return "\(error)"
        }
        return ServerUserCheck.problem()
    }

    /// Every setting name the installed server knows; nil when it cannot be asked.
    nonisolated(unsafe) private static var cached: Set<String>??

    private static var knownNames: Set<String>? {
        if let cached { return cached }
        let names = describeConfig()
        cached = .some(names)
        return names
    }

    private static func describeConfig() -> Set<String>? {
        guard let installation = try? PostgresInstallation.locate(),
              let pipe = popen("'\(installation.postgres)' --describe-config 2>/dev/null", "r")
        else { return nil }
        var names = Set<String>()
        var line = [CChar](repeating: 0, count: 65_536)
        while fgets(&line, Int32(line.count), pipe) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let name = text.split(separator: "\t", omittingEmptySubsequences: false).first, !name.isEmpty {
                names.insert(name.lowercased())
            }
        }
        return pclose(pipe) == 0 && !names.isEmpty ? names : nil
    }
}
