import ArgumentParser
import QueryEngine
import Relational
import Workloads

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run one query (a catalog name or a .rq file) on a generated dataset; print its result tables and counters.",
        discussion: "With --verify the result is also checked against the reference evaluator (exit 1 on a mismatch)."
    )

    @Argument(help: "A catalog query name (`testbed queries`) or a path to a query file.")
    var query: String

    @Option(help: "Dataset shape (default: the query's `# shape:` line).")
    var shape: String?

    @Option(help: "Rows of the shape's main table.")
    var rows: Int = 1000

    @Option(help: "Generator seed.")
    var seed: UInt64 = 42

    @Option(name: .customLong("param"), help: "Shape parameter key=value (repeatable).")
    var parameters: [String] = []

    @Option(help: "memory | sqlite")
    var backend: String = "memory"

    @Flag(help: "Run ANALYZE on the SQLite backend.")
    var analyze = false

    @Option(help: "all-on | all-off")
    var preset: String = "all-on"

    @Option(help: "Switch a heuristic on (repeatable).")
    var enable: [String] = []

    @Option(help: "Switch a heuristic off (repeatable).")
    var disable: [String] = []

    @Option(name: .customLong("set"), help: "Set a heuristic's value, NAME=VALUE (repeatable).")
    var assignments: [String] = []

    @Flag(help: "Check the result against the reference evaluator.")
    var verify = false

    func run() throws {
        let engine: QueryEngine
        let catalogQuery: CatalogQuery
        let loaded: LoadedDataset
        do {
            let flags = try HeuristicCatalog.standard.flagSet(
                preset: preset, enable: enable, disable: disable, assignments: assignments)
            engine = QueryEngine(flags: flags)
            guard let backend = Backend(rawValue: backend) else {
                throw WorkloadError.badParameter(name: "--backend", value: backend, expected: "memory | sqlite")
            }
            catalogQuery = try QueryCatalog.find(query)
            guard let shape = try shape.map(Shape.named) ?? catalogQuery.shape else {
                throw WorkloadError.output("\(catalogQuery.path) has no `# shape:` line; give --shape")
            }
            let dataset = try shape.generate(rows: rows, seed: seed, parameters: ShapeParameters(assignments: parameters))
            loaded = try LoadedDataset(dataset, backend: backend, analyze: analyze)
        } catch let error as FlagError {
            throw usageFailure("\(error)")
        } catch let error as WorkloadError {
            throw usageFailure("\(error)")
        }

        let parsed: Query
        do {
            parsed = try catalogQuery.parse(catalog: loaded.catalog)
        } catch let error as QueryError {
            throw usageFailure("\(error)")
        }
        let run = try engine.run(parsed.relations)
        print("query \(catalogQuery.name) on \(loaded.dataset.shape) rows \(rows) seed \(seed), backend \(loaded.backend), flags \(engine.flags.canonical)\n")
        print(renderRun(parsed, run), terminator: "")
        if verify {
            let evaluator = ReferenceEvaluator()
            for (i, relation) in parsed.relations.enumerated() {
                let expected = Set(try evaluator.rows(of: relation))
                if Set(run.results[i]) != expected || run.results[i].count != expected.count {
                    writeToStandardError("testbed: output \(parsed.outputNames[i]) differs from the reference evaluator "
                        + "(\(run.results[i].count) rows, expected \(expected.count))\n")
                    throw ExitCode(1)
                }
            }
            print("verified: every output equals the reference evaluator's")
        }
    }
}
