#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport

/// A throw-away PostgreSQL server that the testbed starts itself.
///
/// `start` makes a fresh directory `testbed-pg-XXXXXX` under `$TMPDIR` (else /tmp) with the
/// cluster in `data/`, the log in `server.log` and the Unix socket beside them; runs
/// `initdb` (superuser `testbed`, trust authentication, UTF-8, locale C so text compares by
/// bytes) and `pg_ctl start`, as an unprivileged user when we are root (see `ServerUser`).
/// The server listens on that socket only (`listen_addresses = ''`: no TCP). Durability is
/// switched off (fsync, synchronous_commit, full_page_writes): the cluster never outlives
/// the run.
///
/// `stop` (idempotent, also called at exit and on SIGINT/SIGTERM/SIGHUP, see
/// `ServerRegistry`, and by a watchdog process if we die) shuts the server down, waits for
/// every process of it to end and removes the directory. A failed start cleans up the same way
/// before it throws.
public final class PostgresServer: @unchecked Sendable {
    public struct Options: Sendable {
        /// Where the server's directory is made; nil: `$TMPDIR`, else /tmp.
        public var temporaryBase: String?
        /// Where the socket goes; nil: the server's own directory (tests point it at another
        /// server's to see a socket in use refused).
        public var socketDirectory: String?
        public var port: Int = 5432
        /// More `postgresql.conf` settings, e.g. `shared_buffers: 256MB`.
        public var settings: [String: String] = [:]
        public var environment: [String: String]

        public init(environment: [String: String] = PostgresInstallation.currentEnvironment()) {
            self.environment = environment
        }
    }

    public static let superuser = "testbed"
    public static let database = "postgres"

    public let installation: PostgresInstallation
    /// The server's top directory (removed by `stop`).
    public let directory: String
    public let socketDirectory: String
    public let port: Int
    public var dataDirectory: String { directory + "/data" }
    public var logFile: String { directory + "/server.log" }

    private let user: ServerUser
    private var watchdog: ServerWatchdog?
    private var mutex = pthread_mutex_t()
    private var stopped = false

    /// Starts a server; throws `notInstalled` when the programs are missing and `startup`
    /// when it cannot be set up, having removed whatever it made.
    public static func start(_ options: Options = Options()) throws -> PostgresServer {
        let installation = try PostgresInstallation.locate(environment: options.environment)
        let user = try ServerUser.resolve(environment: options.environment)
        let base = options.temporaryBase ?? options.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        try checkPath(base, what: options.temporaryBase == nil ? "the temporary directory (TMPDIR)" : "the temporary directory")
        if let socket = options.socketDirectory { try checkPath(socket, what: "the socket directory") }
        let directory = try makeDirectory(in: base)
        let server = PostgresServer(installation: installation, user: user, directory: directory,
                                    socketDirectory: options.socketDirectory ?? directory, port: options.port)
        ServerRegistry.shared.add(server)
        do {
            server.watchdog = try ServerWatchdog(directory: directory)
            try server.initialize(settings: options.settings)
            try server.launch()
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    private init(installation: PostgresInstallation, user: ServerUser, directory: String, socketDirectory: String, port: Int) {
        self.installation = installation
        self.user = user
        self.directory = directory
        self.socketDirectory = socketDirectory
        self.port = port
        pthread_mutex_init(&mutex, nil)
    }

    deinit { stop() }

    /// A new connection to the server's database as its superuser.
    public func connect() throws -> PostgresConnection {
        try PostgresConnection(socketDirectory: socketDirectory, port: port, user: Self.superuser, database: Self.database)
    }

    /// The postmaster's pid while the server runs.
    public var postmasterPID: Int32? { ServerProcesses.postmaster(dataDirectory: dataDirectory) }

    /// Stops the server (immediate shutdown: the cluster is removed, so nothing needs a
    /// checkpoint; then SIGKILL to whatever of it is left), waits for its processes and
    /// removes its directory. Safe to call twice.
    public func stop() {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !stopped else { return }
        stopped = true
        if let pid = postmasterPID {
            // SIGQUIT: immediate shutdown (sessions end, no shutdown checkpoint).
            kill(pid, SIGQUIT)
            _ = ServerProcesses.wait(for: [pid], seconds: 10)
        }
        // Children of a postmaster that was killed end on their own once they notice;
        // whatever is still there after a while is killed.
        var left = ServerProcesses.wait(for: ServerProcesses.inside(directory), seconds: 5)
        for pid in left { kill(pid, SIGKILL) }
        left = ServerProcesses.wait(for: left, seconds: 5)
        _ = try? Subprocess.run(["/bin/rm", "-rf", "--", directory])
        watchdog?.finish()
        watchdog = nil
        ServerRegistry.shared.remove(self)
    }

    // MARK: start-up steps

    private static func makeDirectory(in base: String) throws -> String {
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast()) + Array("testbed-pg-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else {
            throw PostgresError(.startup, "cannot create the server's directory in '\(base)': \(ProcessSpawn.errorText(errno))")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Paths go into postgresql.conf and through pg_ctl's shell command: refuse the
    /// characters that would need quoting there, and sockets past the kernel's length limit.
    private static func checkPath(_ path: String, what: String) throws {
        if let bad = path.first(where: { "\"'$`\\,\n\r\t ".contains($0) }) {
            throw PostgresError(.startup,
                "\(what) '\(path)' contains '\(bad)', which the PostgreSQL server's paths cannot hold here; "
                + "set TMPDIR to a plain path")
        }
        // "<dir>/testbed-pg-XXXXXX/.s.PGSQL.65535" must fit sockaddr_un's 108 bytes with its NUL.
        if path.utf8.count + 36 > 107 {
            throw PostgresError(.startup,
                "\(what) '\(path)' is too long for a Unix socket path (at most 71 bytes here); set TMPDIR to a shorter path")
        }
    }

    private func run(_ arguments: [String], _ what: String) throws {
        let result = try Subprocess.run(user.command(arguments))
        guard result.status == 0 else {
            var message = "\(what) failed (exit \(result.status))"
            let output = result.lastLines(6)
            if !output.isEmpty { message += ":\n" + output }
            throw PostgresError(.startup, message)
        }
    }

    private func initialize(settings: [String: String]) throws {
        if let name = user.name {
            guard chown(directory, user.uid, user.gid) == 0 else {
                throw PostgresError(.startup, "cannot hand '\(directory)' to user \(name): \(ProcessSpawn.errorText(errno))")
            }
        }
        try run([installation.initdb, "-D", dataDirectory, "-U", Self.superuser, "--auth=trust",
                 "--encoding=UTF8", "--locale=C", "--no-sync"],
                "initdb (as \(user.name ?? "the current user")) in '\(dataDirectory)'")
        var conf = "\n# testbed: a throw-away server on a Unix socket only\n"
        var all: [(String, String)] = [
            ("listen_addresses", "''"),
            ("unix_socket_directories", quote(socketDirectory)),
            ("unix_socket_permissions", "0700"),
            ("port", String(port)),
            ("fsync", "off"),
            ("synchronous_commit", "off"),
            ("full_page_writes", "off"),
        ]
        all += settings.sorted { $0.key < $1.key }.map { ($0.key, quote($0.value)) }
        for (key, value) in all { conf += "\(key) = \(value)\n" }
        do {
            try FileSystem.writeText((try FileSystem.readText(dataDirectory + "/postgresql.conf")) + conf,
                                     to: dataDirectory + "/postgresql.conf")
        } catch {
            throw PostgresError(.startup, "cannot write the server's settings: \(error)")
        }
    }

    private func launch() throws {
        do {
            try run([installation.pgCtl, "start", "-w", "-t", "60", "-D", dataDirectory, "-l", logFile],
                    "starting PostgreSQL (pg_ctl start)")
        } catch let error as PostgresError {
            // The server's own reason (a socket in use, a bad setting) is in its log.
            let log = (try? FileSystem.readText(logFile)) ?? ""
            let lines = log.split(separator: "\n").suffix(4).joined(separator: "\n")
            throw PostgresError(.startup, error.message + (lines.isEmpty ? "" : "\nserver log:\n" + lines))
        }
    }

    private func quote(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation here).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
