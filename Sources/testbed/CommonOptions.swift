import ArgumentParser
import FileSupport
import QueryEngine
import Workloads

/// `--preset`, `--enable`, `--disable`, `--set`: the heuristic flags of every command that runs queries.
struct HeuristicFlagOptions: ParsableArguments {
    @Option(help: "Start from this preset: all-on | all-off.")
    var preset: String = "all-on"

    @Option(help: "Switch a heuristic on (repeatable; `testbed flags` lists them).")
    var enable: [String] = []

    @Option(help: "Switch a heuristic off (repeatable).")
    var disable: [String] = []

    @Option(name: .customLong("set"), help: "Set a heuristic's value, NAME=VALUE (repeatable).")
    var assignments: [String] = []

    /// The flag set, or exit code 2 with the flag error on stderr.
    func flagSet() throws -> FlagSet {
        do {
            return try HeuristicCatalog.standard.flagSet(
                preset: preset, enable: enable, disable: disable, assignments: assignments)
        } catch let error as FlagError {
            throw usageFailure("\(error)")
        }
    }
}

/// `--shape`, `--rows`, `--seed`, `--param`, `--backend`, `--analyze`: which generated data a query runs on.
struct DatasetOptions: ParsableArguments {
    @Option(help: "Dataset shape: documents | pets | todo | employees (default: the query's `# shape:` line).")
    var shape: String?

    // Unconditional, so `--rows -5` reaches the range check instead of reading as an option.
    @Option(parsing: .unconditional, help: "Rows of the shape's main table, \(rowRangeText).")
    var rows: Int = 1000

    @Option(help: "Generator seed.")
    var seed: UInt64 = 42

    @Option(name: .customLong("param"), help: "Shape parameter key=value (repeatable).")
    var parameters: [String] = []

    @Option(help: "Where the sources live: memory | sqlite.")
    var backend: String = "memory"

    @Flag(help: "Run ANALYZE on the SQLite backend.")
    var analyze = false

    /// Finds the query, loads the dataset it needs and parses the query against it, or
    /// exits 2 naming what was wrong.
    func loadAndParse(query name: String) throws -> (CatalogQuery, LoadedDataset, Query) {
        let (catalogQuery, loaded) = try load(query: name)
        do {
            return (catalogQuery, loaded, try catalogQuery.parse(catalog: loaded.catalog))
        } catch let error as QueryError {
            throw usageFailure("\(error)")
        }
    }

    /// Finds the query and loads the dataset it needs, or exits 2 naming what was wrong.
    func load(query name: String) throws -> (CatalogQuery, LoadedDataset) {
        do {
            guard let backend = Backend(rawValue: backend) else {
                throw WorkloadError.badParameter(name: "--backend", value: backend, expected: "memory | sqlite")
            }
            guard Shape.rowRange.contains(rows) else {
                throw usageFailure("--rows: '\(rows)' is not a dataset size; expected an integer from \(rowRangeText)")
            }
            let chosen = try naming("--shape") { try shape.map(Shape.named) }
            let parameters = try naming("--param") { try ShapeParameters(assignments: self.parameters) }
            let catalogQuery = try QueryCatalog.find(name)
            guard let shape = chosen ?? catalogQuery.shape else {
                throw WorkloadError.output("\(catalogQuery.path) has no `# shape:` line; give --shape")
            }
            let dataset = try shape.generate(rows: rows, seed: seed, parameters: parameters)
            return (catalogQuery, try LoadedDataset(dataset, backend: backend, analyze: analyze))
        } catch let error as WorkloadError {
            throw usageFailure("\(error)")
        } catch let error as FileSystemError {
            throw usageFailure("\(error)")
        }
    }
}

/// `body`'s workload error, prefixed with the option the bad value came from.
private func naming<T>(_ option: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as WorkloadError { throw usageFailure("\(option): \(error)") }
}

/// The row counts every shape accepts, as help text states them.
let rowRangeText = "\(Shape.rowRange.lowerBound) to \(Shape.rowRange.upperBound)"
