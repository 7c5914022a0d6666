import QueryEngine
import XCTest
@testable import Verification

/// The reduced case the fuzzer produced for a join filter that loses a key (the injected
/// bug of ReducerTests): a one-row table joined with a one-row table whose key is the same
/// number written as a real. The standard engine must give the joined row under the flags
/// recorded; the broken heuristic must still be caught by the same files.
final class JoinFilterKeyRegressionTests: XCTestCase {
    static func files(flags: String) -> [String: String] {
        [
        "manifest.txt": """
            flags: \(flags)
            backend: memory
            kind: reference
            batch-size: 1024
            table: t0 indexed [] rows 1
            table: t1 indexed [] rows 1

            """,
        "query.rq": "output t0 join t1\n",
        "t0.csv": "a,d,e\n3,0,2.25\n",
        "t1.csv": "a,c\n3.0,-1\n",
        ]
    }

    func testJoinFilterKeepsEveryKey() throws {
        try assertReplaysClean(Self.files(flags: "initiator-ordering=smallest-estimate,join-filter-threshold=100,select-pushdown=on,subtree-copy-limit=100,subtree-copying=on,union-flattening=on"))
    }

    func testBrokenJoinFilterIsCaughtByTheSameRepro() throws {
        // The broken catalog has no join-filter-threshold; its own flag is on by default.
        let files = Self.files(flags: "initiator-ordering=smallest-estimate,select-pushdown=on,subtree-copy-limit=100,subtree-copying=on,union-flattening=on")
        let repro = try ReproDirectory.parse(files: files, catalog: BrokenJoinFilter.catalog)
        let found = try ReproDirectory.replay(repro, catalog: BrokenJoinFilter.catalog)
        XCTAssertEqual(found.first?.kind, .reference)
        XCTAssertEqual(found.first?.expected.count, 1)
        XCTAssertEqual(found.first?.actual.count, 0)
    }
}
