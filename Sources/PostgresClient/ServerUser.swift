#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who runs initdb, pg_ctl and the server. PostgreSQL refuses to run as root, so when the
/// testbed is root (CI containers) they run as an unprivileged system account through
/// `runuser`: the one named in `TESTBED_POSTGRES_USER`, else `postgres` (created by the
/// Debian package), else `nobody` (present everywhere). Otherwise they run as ourselves.
struct ServerUser: Sendable {
    static let environmentVariable = "TESTBED_POSTGRES_USER"

    /// nil when the testbed is not root and runs the programs itself.
    let name: String?
    let uid: uid_t
    let gid: gid_t
    /// `runuser`'s path when `name` is set.
    let runuser: String?

    static func resolve(environment: [String: String]) throws -> ServerUser {
        guard geteuid() == 0 else { return ServerUser(name: nil, uid: geteuid(), gid: getegid(), runuser: nil) }
        let wanted = environment[environmentVariable].flatMap { $0.isEmpty ? nil : [$0] } ?? ["postgres", "nobody"]
        let places: [String] = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser", "/bin/runuser"]
        guard let runuser = places.first(where: { access($0, X_OK) == 0 }) else {
            throw PostgresError(.startup,
                "the testbed runs as root, and PostgreSQL refuses root, but runuser (util-linux) is not installed "
                + "to start it as an unprivileged user; install util-linux or run the testbed as another user")
        }
        for candidate in wanted {
            guard let entry = getpwnam(candidate) else { continue }
            let uid = entry.pointee.pw_uid
            guard uid != 0 else {
                throw PostgresError(.startup, "\(environmentVariable)=\(candidate) names root; PostgreSQL refuses to run as root")
            }
            return ServerUser(name: candidate, uid: uid, gid: entry.pointee.pw_gid, runuser: runuser)
        }
        throw PostgresError(.startup,
            "the testbed runs as root, and PostgreSQL refuses root, but no unprivileged user to run it as exists "
            + "(tried \(wanted.joined(separator: ", "))); set \(environmentVariable) to one")
    }

    /// The command line running `arguments` as this user.
    func command(_ arguments: [String]) -> [String] {
        guard let name, let runuser else { return arguments }
        return [runuser, "-u", name, "--"] + arguments
    }
}

/// Whether the server could be started as the user `ServerUser` picks, asked before any
/// work: a `TESTBED_POSTGRES_USER` naming root or no user (or no `runuser` to switch with)
/// was found only when the server started, after a run's own cells, and ended it with exit 1.
public enum ServerUserCheck {
    /// nil when a user to run the server as is found, else why not.
    public static func problem(environment: [String: String] = PostgresInstallation.currentEnvironment()) -> String? {
        do {
            _ = try ServerUser.resolve(environment: environment)
            return nil
        } catch let error as PostgresError {
            return error.message
        } catch {
            return "\(error)"
        }
    }
}
