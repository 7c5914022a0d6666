import XCTest
import QueryEngine
import Relational
@testable import Workloads

/// Each heuristic added after the seed wins on the catalog query that justifies it: `all-on`
/// reads far fewer source rows than `seed`, switching that one heuristic off loses the win,
/// and every run gives the reference evaluator's answer. Counters only (deterministic).
final class LaterHeuristicCaseTests: XCTestCase {
    struct Measured {
        var rows: Int
        var order: [String]
    }

    /// Every backend but the plist directory and database stores, which keep one file per row
    /// or per table and took 40 of this class's 45 seconds at 20,000 rows (debug build); their
    /// selective fetches are checked against the reference under the whole test grid by
    /// PlistBackendTests' catalog verification.
    static let backends = Backend.allCases.filter { $0 != .plistDirectory && $0 != .plistDatabase }

    /// Datasets and reference answers already made in this test, by query, size and backend:
    /// one generation and one reference evaluation serve every flag set measured on them.
    private var loadedDatasets: [String: LoadedDataset] = [:]
    private var referenceAnswers: [String: [Set<Row>]] = [:]

    /// XCTest keeps every test case object until the process ends, so a dataset held here
    /// would outlive its test: a plist-file dataset's temporary directory, removed when the
    /// dataset goes away, was left in /tmp by every run of the suite.
    override func tearDown() {
        loadedDatasets = [:]
        referenceAnswers = [:]
        super.tearDown()
    }

    func measure(_ name: String, rows: Int, parameters: [String: String] = [:], backend: Backend = .memory,
                 preset: String, disable: [String] = [], set: [String: String] = [:]) throws -> Measured {
        let query = try QueryCatalog.find(name, directory: catalogDirectory)
        let shape = try XCTUnwrap(query.shape)
        let key = "\(name) \(rows) \(parameters.sorted { $0.key < $1.key })"
        let loaded = try loadedDatasets["\(key) \(backend)"] ?? LoadedDataset.generate(
            shape, rows: rows, seed: 42, parameters: ShapeParameters(parameters), backend: backend)
        loadedDatasets["\(key) \(backend)"] = loaded
        let flags = try HeuristicCatalog.standard.flagSet(preset: preset, disable: disable, set: set)
        let (parsed, run) = try loaded.run(query, engine: QueryEngine(flags: flags))
        let expected = try referenceAnswers[key] ?? parsed.relations.map { Set(try ReferenceEvaluator.evaluate($0)) }
        referenceAnswers[key] = expected
        for (i, answer) in expected.enumerated() {
            XCTAssertEqual(Set(run.results[i]), answer, "\(name) \(backend) \(preset) -\(disable)")
        }
        return Measured(rows: run.counters.sourceRowsRead, order: run.counters.initiatorOrder)
    }

    /// The class: a shared union with a one-row literal. Smallest-estimate drains the
    /// literal first, starting the union before the selection's join filter arrives. Since
    /// the runner narrows a filter along an edge that already has one (per-edge filters),
    /// the seed's heuristics recover this class themselves: the join filter still reaches the
    /// union's documents source, so `seed` reads 4 rows, not 20,003 as before that change.
    /// Filter-aware ordering drains the selection's side first and saves the one row the
    /// literal's early drain costs.
    func testFilterAwareOrderingOnTheTinyInitiatorCase() throws {
        let seed = try measure("tiny-initiator-parent", rows: 20_000, preset: "seed")
        let allOn = try measure("tiny-initiator-parent", rows: 20_000, preset: "all-on")
        let without = try measure("tiny-initiator-parent", rows: 20_000, preset: "all-on", disable: ["filter-aware-ordering"])
        XCTAssertEqual(seed.rows, 4)
        XCTAssertEqual(seed.order.prefix(2), ["selected_documents", "literal"])
        XCTAssertEqual(allOn.rows, 3)
        // The literal, (0, "Unfiled", null), is then under `id in {parent}`, which its id's
        // range rules out: `provably-empty-first` drains it next, delivering nothing (and,
        // without it, `sampled-estimate-ordering`, sampling no match).
        XCTAssertEqual(allOn.order.prefix(2), ["selected_documents", "literal"])
        let ordered = try measure("tiny-initiator-parent", rows: 20_000, preset: "all-on", disable: ["provably-empty-first", "sampled-estimate-ordering"])
        XCTAssertEqual(ordered.rows, 3)
        XCTAssertEqual(ordered.order.prefix(2), ["selected_documents", "documents"])
        XCTAssertEqual(without.rows, seed.rows)
        XCTAssertEqual(try measure("tiny-initiator-parent", rows: 20_000, preset: "all-off").rows, 20_002)
        // Declaration order drains the shared union's sources in the planner's order; the
        // deferral overrides that too.
        let declaration = try measure("tiny-initiator-parent", rows: 20_000, preset: "all-on",
                                      set: ["initiator-ordering": "declaration"])
        XCTAssertEqual(declaration.rows, 3)
    }

    /// 500 selected employees are more than join-filter-threshold's 100 rows: the seed reads
    /// all equipment; the pushed-down IN-set (or, above max-keys, the id range) does not.
    func testJoinFilterPushdownOnTheFirstEmployeesCase() throws {
        for backend in Self.backends {
            let seed = try measure("first-employees-equipment", rows: 20_000, backend: backend, preset: "seed")
            let allOn = try measure("first-employees-equipment", rows: 20_000, backend: backend, preset: "all-on")
            let range = try measure("first-employees-equipment", rows: 20_000, backend: backend, preset: "all-on",
                                    set: ["join-filter-pushdown-max-keys": "0"])
            let without = try measure("first-employees-equipment", rows: 20_000, backend: backend, preset: "all-on",
                                      disable: ["join-filter-pushdown"])
            XCTAssertGreaterThan(seed.rows, 10 * allOn.rows / 2, "\(backend)")
            // The ids 1...500 are contiguous, so the range lets through exactly the IN-set's rows.
            XCTAssertEqual(range.rows, allOn.rows, "\(backend)")
            XCTAssertEqual(without.rows, seed.rows, "\(backend)")
        }
    }

    /// The seed's children query with 500 selected documents: the pushed-down IN-set
    /// fetches their children through the parent_id index.
    func testJoinFilterPushdownOnManySelectedDocuments() throws {
        let seed = try measure("selected-document-children", rows: 20_000, parameters: ["selected": "500"], preset: "seed")
        let allOn = try measure("selected-document-children", rows: 20_000, parameters: ["selected": "500"], preset: "all-on")
        XCTAssertEqual(seed.rows, 20_500)
        XCTAssertLessThan(allOn.rows, 2_000)
    }

    /// Nothing in the seed filters a set operation's operand: the intersection reads every
    /// document; the set-operand filter becomes `parent_id in {selected}` through the rename.
    func testSetOperandFilterOnTheSelectedWithChildrenCase() throws {
        for backend in Self.backends {
            let seed = try measure("selected-with-children", rows: 20_000, backend: backend, preset: "seed")
            let allOn = try measure("selected-with-children", rows: 20_000, backend: backend, preset: "all-on")
            let without = try measure("selected-with-children", rows: 20_000, backend: backend, preset: "all-on",
                                      disable: ["set-operand-filter"])
            XCTAssertEqual(seed.rows, 20_001, "\(backend)")
            XCTAssertLessThan(allOn.rows, 20, "\(backend)")
            XCTAssertEqual(without.rows, seed.rows, "\(backend)")
        }
    }
}
