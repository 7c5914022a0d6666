import XCTest
import Relational
@testable import QueryEngine

/// The README's "Adding a heuristic" example: `largest-estimate` is one strategy file plus
/// one line in InitiatorOrdering's list, and it changes the drain order as it should.
final class AddingAHeuristicTests: XCTestCase {
    func testLargestEstimateDrainsTheBigSourceFirst() throws {
        let documents = try Fixtures.documents(1_000)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let catalog = HeuristicCatalog.standard
        XCTAssertTrue(try catalog.spec(named: "initiator-ordering").kind.summary.contains("largest-estimate"))

        let smallest = try QueryEngine(preset: "all-on").run([query])
        XCTAssertEqual(smallest.counters.initiatorOrder.first, "selected_documents")

        // Under the seed's heuristics the ordering alone decides.
        let flags = try catalog.flagSet(preset: "seed", set: ["initiator-ordering": "largest-estimate"])
        let largest = try QueryEngine(flags: flags).run([query])
        XCTAssertEqual(largest.counters.initiatorOrder.first, "documents")
        XCTAssertEqual(largest.results[0].asSet, smallest.results[0].asSet)
        XCTAssertGreaterThan(largest.counters.sourceRowsRead, 1_000)

        // With all-on, filter-aware-ordering defers documents (the larger side of both joins)
        // whatever the ordering prefers.
        let aware = try QueryEngine(flags: catalog.flagSet(preset: "all-on", set: ["initiator-ordering": "largest-estimate"]))
            .run([query])
        XCTAssertEqual(aware.counters.initiatorOrder.first, "selected_documents")
        XCTAssertEqual(aware.counters.sourceRowsRead, smallest.counters.sourceRowsRead)
    }

    /// A heuristic written outside the engine plugs in through the catalog alone.
    func testACustomHeuristicPlugsInThroughTheCatalog() throws {
        final class CountsInitiators: Heuristic {
            nonisolated(unsafe) static var seen = 0
            static let counting = FlagKey<Bool>("count-initiators")
            static let flags = [FlagSpec(name: counting.name, kind: .toggle, allOn: .toggle(true),
                                         allOff: .toggle(false), meaning: "test only")]
            static func make(_ flags: FlagSet) -> CountsInitiators? { flags.isOn(counting) ? .init() : nil }
            func chooseInitiator(from candidates: [NodeID], run: any RunnerContext) -> NodeID? {
                CountsInitiators.seen += 1
                return nil
            }
        }
        let catalog = HeuristicCatalog(HeuristicCatalog.standard.heuristics + [CountsInitiators.self])
        let flags = try catalog.flagSet(preset: "all-off", enable: ["count-initiators"])
        // Tunables outside the contract are listed only when they differ from all-on,
        // and the canonical text (read on top of all-on) gives the same flag set back.
        XCTAssertFalse(flags.canonical.contains("count-initiators"))
        XCTAssertEqual(try catalog.parseCanonical(flags.canonical), flags)
        let query = try Fixtures.literal("a", ["x"], [[1]]).union(Fixtures.literal("b", ["x"], [[2]]))
        let run = try QueryEngine(flags: flags, catalog: catalog).run([query])
        XCTAssertEqual(run.results[0].count, 2)
        XCTAssertEqual(CountsInitiators.seen, 2)
    }
}
