import XCTest
import Relational
@testable import QueryEngine

/// A prepared query runs again and again from fresh runtime state: every run gives what
/// `QueryEngine.run` gives, rows and counters alike, and the runtime edits of one run (a
/// subtree copy) do not leak into the next.
final class PreparedQueryTests: XCTestCase {
    func testRepeatedRunsMatchOneShotRuns() throws {
        let documents = try Fixtures.documents(1_000)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        for preset in HeuristicCatalog.presetNames {
            let engine = try QueryEngine(preset: preset)
            let expected = try engine.run([query])
            let prepared = try engine.prepare([query])
            for _ in 0..<3 {
                let run = try prepared.run()
                XCTAssertEqual(run.results[0].asSet, expected.results[0].asSet, preset)
                XCTAssertEqual(run.counters, expected.counters, preset)
                XCTAssertEqual(run.hookReports.map(\.name), expected.hookReports.map(\.name), preset)
            }
            XCTAssertEqual(prepared.optimized.liveNodeIDs.count, expected.counters.nodesAfterOptimization, preset)
        }
        // all-on copies a subtree at run time; the prepared graph keeps its original nodes.
        let prepared = try QueryEngine(preset: "all-on").prepare([query])
        let before = prepared.optimized.nodes.count
        XCTAssertEqual(try prepared.run().counters.subtreesCopied, 1)
        XCTAssertEqual(prepared.optimized.nodes.count, before)
    }

    /// Later runs reset the earlier run's node state and kernels in place (join tables
    /// emptied and kept while small): with the sources changed between runs, a run from
    /// reused state gives the rows and counters of a run from fresh state, and the rows of a
    /// one-shot run, under every preset, whether the stored join side stayed small or
    /// outgrew the reuse limit.
    func testReusedRunStateLeaksNothingBetweenRuns() throws {
        let documents = try Fixtures.documents(6_000)
        let selected = try MemoryTable(name: "selected_documents", columns: ["id"], rows: [[.integer(3)]])
        let docs = Relation(source: documents)
        let selectedDoc = try Relation(source: selected).named("selected_documents").join(docs).named("selectedDocumentMetadata")
        let parentID = try selectedDoc.project(["parent_id"]).rename(["parent_id": "id"]).named("selectedDocumentParentID")
        let query = try parentID.join(docs).named("selectedDocumentParentMetadata")
        let selections: [[Int64]] = [[3], [5, 7], Array(1...5_000), [12], [], [2, 4_999]]
        for preset in HeuristicCatalog.presetNames {
            let engine = try QueryEngine(preset: preset)
            let prepared = try engine.prepare([query])
            for ids in selections {
                selected.removeAll()
                for id in ids { _ = try selected.add(Row([.integer(id)])) }
                let label = "\(preset), \(ids.count) ids"
                prepared.refreshSourceCounts()
                prepared.dropSpareRunState()
                let fresh = try prepared.run()
                let reused = try prepared.run()
                XCTAssertEqual(reused.results[0].asSet, fresh.results[0].asSet, label)
                XCTAssertEqual(reused.counters, fresh.counters, label)
                XCTAssertEqual(reused.results[0].asSet, try engine.run([query]).results[0].asSet, label)
            }
        }
    }

    /// What a prepared query keeps across runs (filter-aware ordering's run instance and its
    /// sample memos, join-filter-threshold's key attributes, emptied run state) never carries
    /// a table's contents from one run to the next. `small join [a = e] big select (e ==
    /// null)`, `big` unindexed on `e` and sized by its statistics sample: with one null `e`
    /// it is sized at a row and `small` waits for its key; rewritten between two runs of the
    /// same prepared query so that most `e` are null (same row count, same filter), it is
    /// sized at most of its rows and the order flips. The prepared query's second run must
    /// decide, read and return what a freshly prepared query does, under `all-on` and with
    /// filter-aware ordering deciding alone (`sampled-estimate-ordering` off).
    func testAChangedTableBetweenPreparedRunsDecidesAsAFreshPrepare() throws {
        func bigRows(nulls: Int) -> [[Value]] {
            (0..<88).map { [$0 % 88 < nulls ? .null : .integer($0), .integer($0)] }
        }
        for disable in [[], ["sampled-estimate-ordering"]] {
            let big = try MemoryTable(name: "big", columns: ["e", "y"], rows: bigRows(nulls: 1))
            let small = try MemoryTable(name: "small", columns: ["a", "x"], rows: (0..<5).map { [.integer($0 * 3), .integer($0)] })
            let query = try Relation(source: small).equijoin(Relation(source: big), matching: [JoinPair("a", "e")])
                .select("e" *== .null)
            let engine = try QueryEngine(flags: HeuristicCatalog.standard.flagSet(preset: "all-on", disable: disable))
            let prepared = try engine.prepare([query])
            let before = try prepared.run()
            XCTAssertEqual(try prepared.run().counters, before.counters, "\(disable)")
            big.removeAll()
            for row in bigRows(nulls: 60) { _ = try big.add(Row(row)) }
            prepared.refreshSourceCounts()
            let again = try prepared.run()
            let fresh = try engine.prepare([query]).run()
            XCTAssertEqual(again.results[0].asSet, fresh.results[0].asSet, "\(disable)")
            XCTAssertEqual(again.counters, fresh.counters, "\(disable)")
            XCTAssertEqual(again.counters.sourceRowsRead, fresh.counters.sourceRowsRead, "\(disable)")
            XCTAssertEqual(again.results[0].asSet, try engine.run([query]).results[0].asSet, "\(disable)")
            if disable.isEmpty { continue }
            // The change flips filter-aware ordering's decision: the case tests something.
            XCTAssertNotEqual(before.counters.initiatorOrder, fresh.counters.initiatorOrder, "\(disable)")
        }
    }

    /// A prepared query's estimate cache keeps a memory table's estimates into the next run
    /// only while the table is unchanged (`MemoryTable.contentVersion`). Here the smaller
    /// table becomes the larger between two runs, which flips the seed's smallest-estimate
    /// initiator order: the next run must decide, read and return what a fresh prepare
    /// does (with the kept estimates not dropped, it drains the old smaller table first).
    func testAnEstimateKeptAcrossRunsIsDroppedWhenItsTableChanges() throws {
        for preset in ["seed", "all-on"] {
            let left = try MemoryTable(name: "left", columns: ["a", "x"], rows: (0..<5).map { [.integer($0), .integer($0)] })
            let right = try MemoryTable(name: "right", columns: ["b", "y"], rows: (0..<40).map { [.integer($0), .integer($0)] })
            let query = try Relation(source: left).equijoin(Relation(source: right), matching: [JoinPair("a", "b")])
            let engine = try QueryEngine(preset: preset)
            let prepared = try engine.prepare([query])
            let before = try prepared.run()
            XCTAssertEqual(try prepared.run().counters, before.counters, preset)
            for i in Int64(5)..<200 { _ = try left.add(Row([.integer(i), .integer(i)])) }
            prepared.refreshSourceCounts()
            let again = try prepared.run()
            let fresh = try engine.prepare([query]).run()
            XCTAssertEqual(again.results[0].asSet, fresh.results[0].asSet, preset)
            XCTAssertEqual(again.counters, fresh.counters, preset)
            XCTAssertEqual(again.counters.sourceRowsRead, fresh.counters.sourceRowsRead, preset)
            XCTAssertEqual(again.counters.estimatesAsked, fresh.counters.estimatesAsked, preset)
            // The change flips the order: the case tests something.
            XCTAssertNotEqual(before.counters.initiatorOrder, fresh.counters.initiatorOrder, preset)
            // And an unchanged table's kept estimates give the same run again.
            XCTAssertEqual(try prepared.run().counters, fresh.counters, preset)
        }
    }

    /// `filter-aware-ordering`'s key look-ahead (`JoinKeyLookahead`) answers from the
    /// tables' contents, so a prepared query's next run must not reuse the last run's
    /// answers. The form of hunt seed 49 case 1406: `t1`'s null `c` keys 25 of `t0`'s rows in
    /// the first run, so `t2` goes first; then `t0` loses its nulls, the look-ahead finds no
    /// match, and a fresh prepare drains `t1` first. The second run must do the same.
    func testAKeyLookaheadIsNotKeptAcrossRunsWhenATableChanges() throws {
        func t0Rows(nulls: Bool) -> [[Value]] {
            (0..<299).map { i in [.integer(30 + i % 60), nulls && i % 12 == 5 ? .null : .integer(i), .integer(i % 50)] }
        }
        let t1 = try MemoryTable(name: "t1", columns: ["c"], rows: [[.null]], indexedAttributes: ["c"])
        let t2 = try MemoryTable(name: "t2", columns: ["a", "b", "d"],
                                 rows: [[.integer(22), .null, .integer(17)], [.null, .integer(50), .integer(4)]],
                                 indexedAttributes: ["d"])
        let t0 = try MemoryTable(name: "t0", columns: ["a", "c", "d"], rows: t0Rows(nulls: true), indexedAttributes: ["a", "d"])
        let query = try Relation(source: t2).join(Relation(source: t0).join(Relation(source: t1)))
        let engine = try QueryEngine(preset: "all-on")
        let prepared = try engine.prepare([query, Relation(source: t1)])
        let before = try prepared.run()
        XCTAssertEqual(try prepared.run().counters, before.counters)
        t0.removeAll()
        for row in t0Rows(nulls: false) { _ = try t0.add(Row(row)) }
        prepared.refreshSourceCounts()
        let again = try prepared.run()
        let fresh = try engine.prepare([query, Relation(source: t1)]).run()
        XCTAssertEqual(again.results[0].asSet, fresh.results[0].asSet)
        XCTAssertEqual(again.counters, fresh.counters)
        // The change flips the decision: the case tests something.
        XCTAssertNotEqual(before.counters.initiatorOrder, fresh.counters.initiatorOrder)
    }

    /// The state a run hands back holds none of a source's columns until the next run: a
    /// kept kernel that did made the next write to the source copy every column
    /// (copy-on-write), so a rename at 1M documents took 3.4 ms instead of 0.2 ms. A write
    /// that copies moves the columns to a new buffer while the old one is still held.
    func testAWriteAfterARunCopiesNoColumns() throws {
        let documents = try Fixtures.documents(1_000)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        func columnsAddress() -> UInt { documents.columns.columns.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        let row = documents.allRows[10]
        for preset in HeuristicCatalog.presetNames {
            let prepared = try QueryEngine(preset: preset).prepare([query])
            XCTAssertEqual(try prepared.run().results[0].count, 1, preset)
            let before = columnsAddress()
            XCTAssertEqual(documents.remove(rows: [row]), 1, preset)
            XCTAssertEqual(columnsAddress(), before, "\(preset): the write copied the table's columns")
            XCTAssertTrue(try documents.add(row), preset)
        }
    }

    func testUntimedHooksAreCountedButNotTimed() throws {
        let documents = try Fixtures.documents(200)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        var engine = try QueryEngine(preset: "all-on")
        let timed = try engine.run([query])
        engine.timesHooks = false
        let untimed = try engine.run([query])
        XCTAssertFalse(untimed.hookReports.isEmpty)
        XCTAssertEqual(untimed.hookReports.map(\.name), timed.hookReports.map(\.name))
        XCTAssertEqual(untimed.hookReports.map(\.calls), timed.hookReports.map(\.calls))
        XCTAssertTrue(untimed.hookReports.allSatisfy { $0.microseconds == 0 })
        XCTAssertEqual(untimed.counters, timed.counters)
    }

    /// Heuristics may keep per-run state (filter-aware ordering keeps the graph's join pairs
    /// from `nodesAdded`), so a prepared query must give every run its own instances.
    func testEachRunGetsFreshHeuristicInstances() throws {
        let documents = try Fixtures.documents(200)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let catalog = HeuristicCatalog(HeuristicCatalog.standard.heuristics + [RunStateProbe.self])
        let prepared = try QueryEngine(preset: "all-on", catalog: catalog).prepare([query])
        RunStateProbe.instancesStarted = 0
        let first = try prepared.run()
        for _ in 0..<3 {
            XCTAssertEqual(try prepared.run().counters, first.counters)
        }
        XCTAssertEqual(RunStateProbe.instancesStarted, 4, "one fresh instance per run")
    }
    /// A run started inside another run of the same prepared query (a hook that runs it)
    /// gets instances of its own: the outer run's filter-aware ordering instance, which
    /// `instanceForRun` hands out again and resets, is not reset under it. Both runs read
    /// and decide what a run alone does.
    func testARunInsideARunSharesNoHeuristicInstance() throws {
        let documents = try Fixtures.documents(200)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let catalog = HeuristicCatalog(HeuristicCatalog.standard.heuristics + [NestedRunProbe.self])
        let prepared = try QueryEngine(preset: "all-on", catalog: catalog).prepare([query])
        let alone = try prepared.run().counters
        XCTAssertEqual(try prepared.run().counters, alone)
        for _ in 0..<2 {
            NestedRunProbe.query = prepared
            NestedRunProbe.nested = nil
            let outer = try prepared.run().counters
            XCTAssertNil(NestedRunProbe.query, "the probe ran the query inside the run")
            XCTAssertEqual(NestedRunProbe.nested, alone)
            XCTAssertEqual(outer, alone)
        }
        XCTAssertEqual(try prepared.run().counters, alone)
    }
}

/// Test only: at its first `nodesAdded` with a query set, runs that query (inside the run).
private final class NestedRunProbe: Heuristic {
    nonisolated(unsafe) static var query: PreparedQuery?
    nonisolated(unsafe) static var nested: RunCounters?
    static let probe = FlagKey<Bool>("nested-run-probe")
    static let flags = [
        FlagSpec(name: probe.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
                 meaning: "test only: runs its query again inside a run")
    ]
    static func make(_ flags: FlagSet) -> NestedRunProbe? { flags.isOn(probe) ? NestedRunProbe() : nil }
    func instanceForRun() -> (any Heuristic)? { self }

    func nodesAdded(_ nodes: [NodeID], run: any RunnerContext) {
        guard let query = Self.query else { return }
        Self.query = nil
        Self.nested = try? query.run().counters
    }
}

/// Test only: counts the instances that saw a run start (their first `nodesAdded`).
private final class RunStateProbe: Heuristic {
    nonisolated(unsafe) static var instancesStarted = 0
    static let probe = FlagKey<Bool>("run-state-probe")
    static let flags = [
        FlagSpec(name: probe.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
                 meaning: "test only: counts instances that saw a run start")
    ]
    static func make(_ flags: FlagSet) -> RunStateProbe? { flags.isOn(probe) ? RunStateProbe() : nil }

    private var started = false

    func nodesAdded(_ nodes: [NodeID], run: any RunnerContext) {
        if !started { Self.instancesStarted += 1 }
        started = true
    }
}

/// The runner calls only the hooks a heuristic can use on the graph (`Heuristic.hooks(for:)`),
/// decided once per prepared query, and heuristics that share state across a prepared
/// query's runs (`instanceForRun`) still decide each run as a fresh one would.
final class HookPlanTests: XCTestCase {
    func testHooksAHeuristicRulesOutAreNeverCalled() throws {
        let documents = try Fixtures.documents(200)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let catalog = HeuristicCatalog(HeuristicCatalog.standard.heuristics + [CannotActHere.self])
        CannotActHere.calls = 0
        let prepared = try QueryEngine(preset: "all-on", catalog: catalog).prepare([query])
        for _ in 0..<2 {
            let run = try prepared.run()
            XCTAssertFalse(run.hookReports.contains { $0.heuristic == "cannot-act-here" })
        }
        XCTAssertEqual(CannotActHere.calls, 0)
        // No closure, intersection or difference in the seed's query: those heuristics are not asked.
        let names = try prepared.run().hookReports.map(\.heuristic)
        XCTAssertFalse(names.contains("closure-seeding"))
        XCTAssertFalse(names.contains("set-operand-filter"))
    }

    /// Filter-aware ordering keeps its pairs and buffers for the prepared query; under
    /// declaration order it is what keeps the seed's query at 3 rows, run after run.
    func testSharedFilterAwareStateDecidesEveryRunAlike() throws {
        let documents = try Fixtures.documents(2_000)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let engine = try QueryEngine(flags: HeuristicCatalog.standard.flagSet(
            preset: "all-on", set: ["initiator-ordering": "declaration"]))
        let expected = try engine.run([query])
        XCTAssertEqual(expected.counters.sourceRowsRead, 3)
        let prepared = try engine.prepare([query])
        for _ in 0..<3 {
            let run = try prepared.run()
            XCTAssertEqual(run.counters, expected.counters)
            XCTAssertEqual(run.results[0].asSet, expected.results[0].asSet)
        }
    }
}

/// Test only: says it cannot act on any graph, and counts the calls it gets anyway.
private final class CannotActHere: Heuristic {
    nonisolated(unsafe) static var calls = 0
    static let flag = FlagKey<Bool>("cannot-act-here")
    static let flags = [
        FlagSpec(name: flag.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false), meaning: "test only")
    ]
    static func make(_ flags: FlagSet) -> CannotActHere? { flags.isOn(flag) ? CannotActHere() : nil }
    func hooks(for graph: PlanGraph) -> HeuristicHooks { .none }
    func nodesAdded(_ nodes: [NodeID], run: any RunnerContext) { Self.calls += 1 }
    func operandCompleted(_ edge: Edge, run: any RunnerContext) { Self.calls += 1 }
    func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> [NodeID] {
        Self.calls += 1
        return []
    }
    func filterActivated(_ node: NodeID, run: any RunnerContext) { Self.calls += 1 }
}
