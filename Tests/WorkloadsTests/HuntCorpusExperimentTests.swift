import XCTest
import Experiments
import QueryEngine
import Relational
import Workloads

/// The shipped experiment `Workloads/hunt-corpus.yaml`, loaded through the config parser
/// `testbed run` uses: at 1,000 documents (one run per flag set, no timing) `all-on` reads
/// no more source rows than `seed` on any query, and on each later hunted class strictly
/// fewer, with the flag set that switches off the recovering heuristic reading more again.
/// Counters only (`source_rows_read`, deterministic).
final class HuntCorpusExperimentTests: XCTestCase {
    /// The later classes and the flag sets of the YAML that lose each (all-on with the
    /// recovering heuristic off).
    static let laterClasses: [String: [String]] = [
        "selected-with-children-under-select": ["no-set-operand-filter"],
        "selected-joined-back-through-select": ["no-late-filter-narrowing", "no-late-subtree-copying"],
        "selected-ancestor-links-under-select": ["no-late-filter-narrowing", "no-closure-seeding"],
        "empty-selection-over-closure": ["no-late-filter-narrowing"],
        "product-row-keys-nothing": ["no-filter-aware-ordering"],
        "tied-literals-null-key": ["no-filter-aware-ordering"],
        "many-keys-join-under-select": ["no-join-filter-pushdown"],
        "held-literal-under-difference": ["no-filter-aware-ordering", "no-late-filter-narrowing"],
    ]

    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) }
        return path
    }()

    func testAllOnReadsNoMoreThanSeedAndFewerOnEachLaterClass() throws {
        let experiment = try ExperimentResolver.load(path: Self.root + "/Workloads/hunt-corpus.yaml")
        let loaded = try LoadedDataset.generate(
            experiment.shape, rows: 1_000, seed: experiment.seed, parameters: experiment.parameters, backend: .memory)
        func run(_ query: ExperimentQuery, _ flagSet: String) throws -> (rows: Int, results: [Set<Row>]) {
            let flags = try XCTUnwrap(experiment.flagSet(named: flagSet), "flag set \(flagSet)").flags
            let parsed = try Query.parse(query.text, catalog: loaded.catalog, file: query.origin)
            let run = try QueryEngine(flags: flags).run(parsed.relations)
            return (run.counters.sourceRowsRead, run.results.map { Set($0) })
        }

        let names = Set(experiment.queries.map(\.name))
        for name in Self.laterClasses.keys.sorted() { XCTAssertTrue(names.contains(name), "\(name) is not in the experiment") }
        for query in experiment.queries {
            let seed = try run(query, "seed"), allOn = try run(query, "all-on")
            XCTAssertEqual(allOn.results, seed.results, query.name)
            XCTAssertLessThanOrEqual(allOn.rows, seed.rows, query.name)
            guard let losing = Self.laterClasses[query.name] else { continue }
            XCTAssertLessThan(allOn.rows, seed.rows, query.name)
            for flagSet in losing {
                let without = try run(query, flagSet)
                XCTAssertEqual(without.results, seed.results, "\(query.name) \(flagSet)")
                XCTAssertGreaterThan(without.rows, allOn.rows, "\(query.name) \(flagSet)")
            }
        }
    }

    /// `Results/hunt-corpus/queries/NAME.rq` (what `testbed query` and `testbed plan` read)
    /// holds each query's text as the experiment runs it.
    func testQueryFilesMatchTheExperiment() throws {
        let experiment = try ExperimentResolver.load(path: Self.root + "/Workloads/hunt-corpus.yaml")
        for query in experiment.queries {
            let file = Self.root + "/Results/hunt-corpus/queries/\(query.name).rq"
            let text = try String(contentsOfFile: file, encoding: .utf8)
            XCTAssertEqual(text, "# shape: documents\n" + query.text, query.name)
        }
    }
}
