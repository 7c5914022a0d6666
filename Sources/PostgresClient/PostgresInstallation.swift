#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

/// Where the server programs are: `initdb`, `pg_ctl` and `postgres` in one directory.
///
/// Looked for, in order: the directory in `TESTBED_POSTGRES_BIN` (when set, only there, so a
/// test or a user can pin a version or simulate a missing installation); Debian's and
/// Ubuntu's `/usr/lib/postgresql/<version>/bin` (the highest version; the `postgresql`
/// package puts the server programs there, not on PATH); then every directory on PATH.
public struct PostgresInstallation: Sendable, Equatable {
    public static let environmentVariable = "TESTBED_POSTGRES_BIN"
    static let programs = ["initdb", "pg_ctl", "postgres"]

    public let binDirectory: String

    public var initdb: String { binDirectory + "/initdb" }
    public var pgCtl: String { binDirectory + "/pg_ctl" }
    public var postgres: String { binDirectory + "/postgres" }

    /// The installation, or a `notInstalled` error with the install hint.
    public static func locate(environment: [String: String] = currentEnvironment()) throws -> PostgresInstallation {
        if let pinned = environment[environmentVariable], !pinned.isEmpty {
            let missing = programs.filter { !isExecutable(pinned + "/" + $0) }
            guard missing.isEmpty else {
                throw PostgresError(.notInstalled,
                    "PostgreSQL is not installed where \(environmentVariable) says: \(missing.joined(separator: ", ")) "
                    + "missing or not executable in '\(pinned)'; unset \(environmentVariable) or install PostgreSQL "
                    + "with `\(PostgresError.installHint)`")
            }
            return PostgresInstallation(binDirectory: pinned)
        }
        var candidates = debianVersionDirectories()
        candidates += (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        for directory in candidates where programs.allSatisfy({ isExecutable(directory + "/" + $0) }) {
            return PostgresInstallation(binDirectory: directory)
        }
        throw PostgresError(.notInstalled,
            "PostgreSQL is not installed (no initdb, pg_ctl and postgres in /usr/lib/postgresql/*/bin or on PATH); "
            + "install it and libpq with `\(PostgresError.installHint)`")
    }

    /// `/usr/lib/postgresql/<version>/bin`, highest version first.
    static func debianVersionDirectories() -> [String] {
        let root = "/usr/lib/postgresql"
        let versions = (FileSystem.entries(of: root) ?? []).sorted { versionKey($0).lexicographicallyPrecedes(versionKey($1)) }
        return versions.reversed().map { "\(root)/\($0)/bin" }
    }

    /// "15" → [15], "9.6" → [9, 6]: numeric, so 10 sorts after 9.
    private static func versionKey(_ name: String) -> [Int] {
        name.split(separator: ".").map { Int($0) ?? -1 }
    }

    private static func isExecutable(_ path: String) -> Bool {
        FileSystem.kind(of: path) == .file && access(path, X_OK) == 0
    }

    /// The process environment as a dictionary.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
