import PlistStore
import QueryEngine
import Relational
import Verification
import Workloads
import XCTest

/// The plist backends behind the engine: results equal memory's, SQLite's and the
/// reference evaluator's; key filters reach single files; changes propagate.
final class PlistBackendTests: XCTestCase {
    static let plistBackends: [Backend] = [.plistFile, .plistDirectory, .plistDatabase]

    /// The tests' flag grid with one subtree-copy limit and the join-filter thresholds 0 and
    /// 100: what reaches a store is its filtered fetches, and these keep every kind of them
    /// (no filter, join filters, copies, every heuristic alone) at a third of the runs.
    static var grid: FlagGrid { FlagGrid(values: [
        "join-filter-threshold": ["0", "100"],
        "initiator-ordering": ["smallest-estimate", "declaration"],
        "subtree-copy-limit": ["100"],
    ], laterCovering: .eachAlone) }

    /// Every catalog query of the documents and pets shapes, at a small size, under that
    /// flag grid on each plist backend (one test per backend, so that `swift test --parallel`
    /// spreads them over its workers), compared with the reference evaluator and SQLite.
    func testCatalogVerificationOnPlistFile() throws { try verifyCatalog(on: .plistFile) }
    func testCatalogVerificationOnPlistDirectory() throws { try verifyCatalog(on: .plistDirectory) }
    func testCatalogVerificationOnPlistDatabase() throws { try verifyCatalog(on: .plistDatabase) }

    func testTheCatalogTestsCoverEveryPlistBackend() {
        XCTAssertEqual(Backend.allCases.filter { $0.plistLayout != nil }, [.plistFile, .plistDirectory, .plistDatabase])
    }

    private func verifyCatalog(on backend: Backend) throws {
        let queries = try QueryCatalog.load().filter { $0.shape == .documents || $0.shape == .pets }
        XCTAssertGreaterThan(queries.count, 3)
        var verification = CatalogVerification(queries: queries, sizes: [12], seeds: [5], grid: Self.grid)
        verification.backends = [backend]
        verification.reduce = false
        verification.reproParent = nil
        let report = try verification.run()
        // Every flag set of the grid on the backend.
        XCTAssertEqual(report.engineRuns, report.cases * (try Self.grid.flagSets().count))
        XCTAssertEqual(report.mismatches, 0, report.firstMismatches.first.map(String.init(describing:)) ?? "")
        XCTAssertEqual(report.skipped, 0)
    }

    /// The result fuzzer drawing its backend from the plist ones: small tables of every
    /// value class (keys that are distinct attributes or whole rows) and larger ones.
    func testFuzzerOnPlistBackends() throws {
        for (cases, rows) in [(150, nil), (25, 120)] as [(Int, Int?)] {
            var fuzzer = Fuzzer(cases: cases, seed: 11)
            fuzzer.backends = Self.plistBackends
            fuzzer.maxRows = rows
            fuzzer.reduce = false
            fuzzer.reproParent = nil
            let report = try fuzzer.run()
            XCTAssertGreaterThan(report.engineRuns, cases)
            XCTAssertEqual(report.mismatches, 0, report.firstMismatches.first.map(String.init(describing:)) ?? "")
        }
    }

    /// The default backends keep the fuzzer's coin, so earlier runs' draws are unchanged.
    func testDefaultFuzzerBackendsAreMemoryAndSQLite() {
        XCTAssertEqual(Fuzzer(cases: 1, seed: 1).backends, [.memory, .sqlite])
        XCTAssertEqual(CatalogVerification(queries: [], sizes: [1], seeds: [1]).backends, [.memory, .sqlite])
    }

    /// The seed's query on plist-directory: with subtree copying the shared documents node
    /// is fetched by key (a few files); without it, it waits for both parents' filters and
    /// is read whole. Counted in files opened, not time.
    func testSubtreeCopyingSavesFileReadsOnPlistDirectory() throws {
        let loaded = try LoadedDataset.generate(.documents, rows: 400, seed: 42, backend: .plistDirectory)
        let query = try QueryCatalog.find("selected-document-parent")
        let parsed = try query.parse(catalog: loaded.catalog)
        let database = try XCTUnwrap(loaded.plist?.database)
        var opened: [String: Int] = [:]
        var results: [String: [[Row]]] = [:]
        for (name, engine) in [("all-on", try QueryEngine(preset: "all-on")),
                               ("no-subtree-copying", QueryEngine(flags: try HeuristicCatalog.standard.flagSet(disable: ["subtree-copying"])))] {
            for r in database.relations { r.resetStatistics() }
            results[name] = try engine.run(parsed.relations).results.map { $0.sorted() }
            opened[name] = database.filesOpened
        }
        XCTAssertEqual(results["all-on"], results["no-subtree-copying"])
        let memory = try LoadedDataset(loaded.dataset, backend: .memory)
        XCTAssertEqual(try QueryEngine(preset: "all-on").run(try query.parse(catalog: memory.catalog).relations).results.map { $0.sorted() },
                       results["all-on"])
        XCTAssertLessThanOrEqual(opened["all-on"] ?? .max, 4)
        XCTAssertGreaterThanOrEqual(opened["no-subtree-copying"] ?? 0, 400)
    }

    /// Change propagation (observing change) over plist-directory sources: every
    /// transaction's RowChanges equal the memory backend's, and saving afterwards persists
    /// the sources' final state.
    func testChangePropagationOverPlistDirectory() throws {
        let dataset = try Shape.documents.generate(rows: 300, seed: 42)
        let query = try QueryCatalog.find("selected-document-parent")
        let script = """
            update selected_documents set [id = 200]
            update parent set [name = "Renamed parent"]
            begin
            add documents [id, name, parent_id] { (1001, "New chapter", 200), (1002, "Notes", 1001) }
            delete documents where (id == 7)
            update documents set [parent_id = 4] where (id == 200)
            commit
            update selected_documents set [id = 1002]
            delete documents where (id == 1001)
            """
        var changes: [Backend: [[RowChange]]] = [:]
        var plistLoaded: LoadedDataset?
        for backend in [Backend.memory, .plistDirectory] {
            let loaded = try LoadedDataset(dataset, backend: backend)
            let parsed = try query.parse(catalog: loaded.catalog)
            let session = try ObserveSession(
                query: parsed, script: try ChangeScript.parse(script, targets: ChangeScript.targets(tables: loaded.catalog, query: parsed)),
                engine: try QueryEngine(preset: "all-on"), mode: .incremental, verify: true)
            var perTransaction: [[RowChange]] = []
            for transaction in session.script.transactions {
                perTransaction.append(try session.script.apply(transaction, to: session.database).changes)
            }
            changes[backend] = perTransaction
            if backend == .plistDirectory { plistLoaded = loaded }
        }
        XCTAssertEqual(changes[.memory]?.count, 5)
        XCTAssertEqual(changes[.memory], changes[.plistDirectory])
        XCTAssertTrue(changes[.memory]?.flatMap { $0 }.contains { $0 != .empty } ?? false)

        let database = try XCTUnwrap(plistLoaded?.plist?.database)
        XCTAssertTrue(database.hasUnsavedChanges)
        try database.saveRelations()
        let reopened = try PlistDatabase.open(database.root)
        let documents = try XCTUnwrap(reopened["documents"])
        XCTAssertEqual(try documents.fetchAll(filter: Attribute("id") *== 1002).first?.values,
                       [.integer(1002), .text("Notes"), .integer(1001)])
        XCTAssertEqual(try documents.fetchAll(filter: Attribute("id") *== 7), [])
        XCTAssertEqual(try documents.fetchAll(filter: Attribute("id") *== 1001), [])
        XCTAssertEqual(try documents.fetchAll(filter: Attribute("id") *== 200).first?[2], .integer(4))
    }
}
