import Glibc
import PostgresClient
import Relational
import XCTest

final class ServerLifecycleTests: XCTestCase {
    private var scratch = ""

    override func setUpWithError() throws {
        try PostgresTestSupport.requireInstallation()
        scratch = try PostgresTestSupport.scratchDirectory()
    }

    override func tearDown() {
        if !scratch.isEmpty { PostgresTestSupport.removeTree(scratch) }
    }

    private func options() -> PostgresServer.Options {
        var options = PostgresServer.Options()
        options.temporaryBase = scratch
        return options
    }

    func testStartQueryStopLeavesNothing() throws {
        let server = try PostgresServer.start(options())
        XCTAssertTrue(server.directory.hasPrefix(scratch + "/testbed-pg-"))
        XCTAssertNotNil(server.postmasterPID)
        let connection = try server.connect()
        let rows = try connection.execute("SELECT $1::bigint + 1, current_setting('listen_addresses')", [.integer(41)])
        XCTAssertEqual(rows.rows, [[.integer(42), .text("")]])
        // Running as root, the server must not be root.
        let user = try connection.execute("SELECT current_setting('data_directory')")
        XCTAssertEqual(user.rows, [[.text(server.dataDirectory)]])
        connection.close()
        XCTAssertFalse(PostgresTestSupport.processes(mentioning: server.directory).isEmpty, "the server runs before stop")
        server.stop()
        XCTAssertEqual(PostgresTestSupport.strayProcesses(server.directory), [])
        XCTAssertEqual(PostgresTestSupport.entries(scratch), [])
        server.stop()  // twice is harmless
    }
}

extension ServerLifecycleTests {
    func testServerRunsAsAnUnprivilegedUserOnASocketOnly() throws {
        let server = try PostgresServer.start(options())
        defer { server.stop() }
        let pid = try XCTUnwrap(server.postmasterPID)
        var info = stat()
        XCTAssertEqual(stat("/proc/\(pid)", &info), 0)
        if geteuid() == 0 { XCTAssertNotEqual(info.st_uid, 0, "postgres must not run as root") }
        XCTAssertTrue(PostgresTestSupport.entries(server.socketDirectory).contains(".s.PGSQL.\(server.port)"))
        // No TCP socket: the server's listen_addresses is empty and /proc/net/tcp has no listener of its.
        let connection = try server.connect()
        XCTAssertEqual(try connection.execute("SHOW listen_addresses").rows, [[.text("")]])
    }

    func testMissingBinariesGiveTheInstallHintAndLeaveNothing() throws {
        let empty = scratch + "/bin"
        XCTAssertEqual(mkdir(empty, 0o755), 0)
        var options = options()
        options.environment[PostgresInstallation.environmentVariable] = empty
        XCTAssertThrowsError(try PostgresServer.start(options)) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.kind, .notInstalled)
            XCTAssertTrue(error?.message.contains("bash scripts/setup.sh --engines") == true, "\(String(describing: error))")
            XCTAssertTrue(error?.message.contains("initdb") == true)
        }
        XCTAssertEqual(PostgresTestSupport.entries(scratch), ["bin"])
    }

    func testFailingInitdbIsReportedAndCleanedUp() throws {
        // Programs that exist but fail, as a broken installation would.
        let bin = scratch + "/bin"
        XCTAssertEqual(mkdir(bin, 0o755), 0)
        for name in ["initdb", "pg_ctl", "postgres"] {
            let script = "#!/bin/sh\necho \"\(name): could not do it, disk on fire\" >&2\nexit 1\n"
            let file = try XCTUnwrap(fopen(bin + "/" + name, "w"))
            fputs(script, file)
            fclose(file)
            chmod(bin + "/" + name, 0o755)
        }
        var options = options()
        options.environment[PostgresInstallation.environmentVariable] = bin
        XCTAssertThrowsError(try PostgresServer.start(options)) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.kind, .startup)
            XCTAssertTrue(error?.message.contains("initdb") == true)
            XCTAssertTrue(error?.message.contains("disk on fire") == true, "\(String(describing: error))")
        }
        XCTAssertEqual(PostgresTestSupport.entries(scratch), ["bin"])
    }

    func testSocketInUseIsRefusedAndTheFirstServerKeepsRunning() throws {
        let first = try PostgresServer.start(options())
        defer { first.stop() }
        var second = options()
        second.socketDirectory = first.socketDirectory
        XCTAssertThrowsError(try PostgresServer.start(second)) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.kind, .startup)
            // PostgreSQL's own words, from the second server's log.
            XCTAssertTrue(error?.message.contains(".s.PGSQL.\(first.port).lock") == true, "\(String(describing: error))")
        }
        // Only the first server's directory is there.
        XCTAssertEqual(PostgresTestSupport.entries(scratch).map { scratch + "/" + $0 }, [first.directory])
        XCTAssertEqual(try first.connect().execute("SELECT 1::bigint").rows, [[.integer(1)]])
        first.stop()
        XCTAssertEqual(PostgresTestSupport.strayProcesses(scratch), [])
        XCTAssertEqual(PostgresTestSupport.entries(scratch), [])
    }

    func testServerKilledMidRunGivesAConnectionErrorAndStopStillCleansUp() throws {
        let server = try PostgresServer.start(options())
        let connection = try server.connect()
        try connection.command("CREATE TABLE t (x bigint)")
        let pid = try XCTUnwrap(server.postmasterPID)
        XCTAssertEqual(kill(pid, SIGKILL), 0)
        // The backend serving us notices its postmaster is gone and ends the session.
        var thrown: PostgresError?
        for _ in 0..<50 where thrown == nil {
            do {
                _ = try connection.execute("SELECT count(*) FROM t")
                usleep(100_000)
            } catch let error as PostgresError {
                thrown = error
            }
        }
        XCTAssertEqual(thrown?.kind, .connection, "\(String(describing: thrown))")
        XCTAssertTrue(thrown?.message.contains(server.socketDirectory) == true)
        server.stop()
        XCTAssertEqual(PostgresTestSupport.strayProcesses(scratch), [])
        XCTAssertEqual(PostgresTestSupport.entries(scratch), [])
    }
}
