import FileSupport
import QueryEngine
import Relational
import Workloads
import XCTest
@testable import Verification

/// `verify --random N --changes` writes each reduced failure as a repro directory that
/// `verify --repro DIR` replays: the case's query (derived nodes written to are named
/// `let`s), its tables, its transactions as a change script, and the flags, mode and keys.
final class ChangeReproTests: XCTestCase {
    func testTheChangeFuzzerWritesAReducedReproThatReplays() throws {
        let parent = try temporaryDirectory("change-repro")
        // Since the merges of 2026-11-24 (a propagation reads most rules through in its
        // parent's run: fewer, bigger runs) none of the first ten cases has a result the
        // broken filter changes; sixty have.
        var fuzzer = ChangeFuzzer(cases: 60, seed: 5, grid: FlagGrid(catalog: BrokenJoinFilter.catalog, values: FlagGrid.tests().values))
        fuzzer.maxReductions = 1
        fuzzer.reproParent = parent
        let report = try fuzzer.run()
        XCTAssertGreaterThan(report.failures, 0, "the broken heuristic went unnoticed")
        let reduced = try XCTUnwrap(report.reduced.first)
        let path = try XCTUnwrap(report.reproPaths.first)
        XCTAssertEqual(path, parent + "/changes-s5-\(reduced.caseIndex)")
        for file in ["query.rq", "changes.changes", "manifest.txt", "problems.txt", "command.txt"] {
            XCTAssertTrue(FileSystem.exists(path + "/" + file), file)
        }
        for t in reduced.graph.tables { XCTAssertTrue(FileSystem.exists(path + "/\(t.name).csv")) }
        let script = try FileSystem.readText(path + "/changes.changes")
        let begins = script.split(separator: "\n").filter { $0 == "begin" }.count
        XCTAssertGreaterThan(begins, 0)
        XCTAssertLessThanOrEqual(begins, reduced.transactions.count)
        XCTAssertFalse(try ChangeReproDirectory.replay(path, catalog: BrokenJoinFilter.catalog).isEmpty)
        // Under the same flags with the broken heuristic off (its all-on value, on, is left
        // out of the canonical flags), the case passes.
        let manifest = try FileSystem.readText(path + "/manifest.txt")
        let lines = manifest.split(separator: "\n").map { $0.hasPrefix("flags: ") ? $0 + ",broken-join-filter=off" : $0 }
        let fixed = lines.joined(separator: "\n") + "\n"
        try FileSystem.writeText(fixed, to: path + "/manifest.txt")
        XCTAssertTrue(try ChangeReproDirectory.replay(path, catalog: BrokenJoinFilter.catalog).isEmpty)
        // A script of no transaction checks nothing: refused, as `observe --changes` refuses it.
        for empty in ["", "# nothing\n"] {
            try FileSystem.writeText(empty, to: path + "/changes.changes")
            XCTAssertThrowsError(try ChangeReproDirectory.replay(path, catalog: BrokenJoinFilter.catalog)) { error in
                XCTAssertEqual("\(error)", "\(path)/changes.changes: no transactions; a change repro replays at least one add, delete or update")
            }
        }
    }

    /// Random cases written as repros (with their writes to derived nodes, keys and the
    /// incremental and counted modes) replay with no problem on the correct engine.
    func testRandomCasesRoundTripThroughTheScriptAndReplayClean() throws {
        let parent = try temporaryDirectory("change-roundtrip")
        let fuzzer = ChangeFuzzer(cases: 30, seed: 17)
        let flags = try HeuristicCatalog.standard.preset("all-on")
        var nodeStatements = 0
        for index in 0..<30 {
            let (graph, transactions) = fuzzer.makeCase(index)
            guard !graph.outputs.isEmpty else { continue }
            nodeStatements += transactions.joined().filter { $0.node != nil }.count
            let failure = ChangeFailure(caseIndex: index, graph: graph, transactions: transactions, flags: flags,
                                        mode: [TransactionalDatabase.Mode.incremental, .incrementalSingle, .counted][index % 3],
                                        declareKeys: index % 3 == 0, problems: ["test"])
            let path = try ChangeReproDirectory.write(failure, id: "case-\(index)", under: parent)
            XCTAssertTrue(ChangeReproDirectory.isChangeRepro(path))
            XCTAssertEqual(try ChangeReproDirectory.replay(path), [], "case \(index)")
        }
        XCTAssertGreaterThan(nodeStatements, 0, "no case wrote to a derived node")
    }

    func testABadModeInTheManifestIsAnErrorNamingTheLine() throws {
        let parent = try temporaryDirectory("change-badmode")
        let (graph, transactions) = ChangeFuzzer(cases: 1, seed: 3).makeCase(0)
        let failure = ChangeFailure(caseIndex: 0, graph: graph, transactions: transactions,
                                    flags: try HeuristicCatalog.standard.preset("all-off"), mode: .incremental,
                                    declareKeys: false, problems: [])
        let path = try ChangeReproDirectory.write(failure, id: "bad", under: parent)
        let manifest = try FileSystem.readText(path + "/manifest.txt")
        try FileSystem.writeText(manifest.replacingOccurrences(of: "mode: incremental", with: "mode: sideways"),
                                 to: path + "/manifest.txt")
        XCTAssertThrowsError(try ChangeReproDirectory.replay(path)) { error in
            XCTAssertTrue("\(error)".contains("manifest.txt:2"), "\(error)")
            XCTAssertTrue("\(error)".contains("sideways"), "\(error)")
        }
    }
}
