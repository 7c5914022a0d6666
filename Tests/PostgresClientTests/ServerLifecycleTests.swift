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
