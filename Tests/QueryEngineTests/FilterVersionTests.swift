import Relational
import XCTest
@testable import QueryEngine

/// `RunnerContext.filterVersion(of:)`, which heuristics key their per-node answers by: within
/// a run, a change of a node's filter or of its activity changes its version, so the same
/// version means the same filter and activity.
final class FilterVersionTests: XCTestCase {
    /// Records, at every pick, each candidate's version beside its filter and activity.
    final class RecordsVersions: Heuristic {
        nonisolated(unsafe) static var seen: [(node: NodeID, version: Int, filter: Relational.Predicate?, active: Bool)] = []
        static let recording = FlagKey<Bool>("record-filter-versions")
        static let flags = [FlagSpec(name: recording.name, kind: .toggle, allOn: .toggle(true),
                                     allOff: .toggle(false), meaning: "test only")]
        static func make(_ flags: FlagSet) -> RecordsVersions? { flags.isOn(recording) ? .init() : nil }
        // Every heuristic is asked to defer (a pick stops at the first heuristic that makes one).
        func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> [NodeID] {
            for node in candidates {
                let state = run.filterState(of: node)
                Self.seen.append((node, run.filterVersion(of: node), state.filter, state.isActive))
            }
            return []
        }
    }

    func testTheVersionChangesWhenTheFilterOrItsActivityDoes() throws {
        let documents = try Fixtures.documents(1_000)
        // Two lookups keyed by one selection: documents' filter is given, activated and
        // narrowed while the other sources wait.
        let parent = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let children = try Fixtures.selectedDocumentParent(documents: documents, selected: 7)
        let catalog = HeuristicCatalog(HeuristicCatalog.standard.heuristics + [RecordsVersions.self])
        for preset in ["all-on", "seed", "all-off"] {
            RecordsVersions.seen = []
            let flags = try catalog.flagSet(preset: preset, enable: ["record-filter-versions"])
            _ = try QueryEngine(flags: flags, catalog: catalog).run([parent, children])
            XCTAssertFalse(RecordsVersions.seen.isEmpty, preset)
            var byNode: [NodeID: [(version: Int, filter: Relational.Predicate?, active: Bool)]] = [:]
            for entry in RecordsVersions.seen { byNode[entry.node, default: []].append((entry.version, entry.filter, entry.active)) }
            // Some candidate is seen under two filters (documents, once a join keyed it), so
            // the check below is not only of unchanged nodes (all-off gives no join filter).
            if preset != "all-off" {
                XCTAssertTrue(byNode.values.contains { entries in Set(entries.map { $0.version }).count > 1 }, preset)
            }
            for (node, entries) in byNode {
                for (earlier, later) in zip(entries, entries.dropFirst()) {
                    let same = earlier.filter == later.filter && earlier.active == later.active
                    XCTAssertTrue(same || earlier.version != later.version, "\(preset): node \(node)")
                    XCTAssertLessThanOrEqual(earlier.version, later.version, "\(preset): node \(node)")
                }
            }
        }
    }
}
