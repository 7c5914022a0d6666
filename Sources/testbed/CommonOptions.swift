import ArgumentParser
import FileSupport
import QueryEngine
import Workloads

/// `--preset`, `--enable`, `--disable`, `--set`: the heuristic flags of every command that runs queries.
struct HeuristicFlagOptions: ParsableArguments {
    @Option(help: "Start from this preset: all-on | seed | all-off.")
    var preset: String = "all-on"

    @Option(help: "Switch a heuristic on (repeatable; `testbed flags` lists them).")
    var enable: [String] = []

    @Option(help: "Switch a heuristic off (repeatable).")
    var disable: [String] = []

    @Option(name: .customLong("set"), help: "Set a heuristic's value, NAME=VALUE (repeatable).")
    var assignments: [String] = []

    /// The flag set, or exit code 2 naming the option whose value is wrong: each option is
    /// checked on its own first, then the combination (a heuristic both enabled and disabled).
    func flagSet() throws -> FlagSet {
        let catalog = HeuristicCatalog.standard
        try naming("--preset") { _ = try catalog.preset(preset) }
        try naming("--enable") { _ = try catalog.flagSet(enable: enable) }
        try naming("--disable") { _ = try catalog.flagSet(disable: disable) }
        try naming("--set") { _ = try catalog.flagSet(preset: preset, enable: [], disable: [], assignments: assignments) }
        return try naming("--enable/--disable") {
            try catalog.flagSet(preset: preset, enable: enable, disable: disable, assignments: assignments)
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

    @Option(help: "Where the sources live: memory | sqlite | plist-file | plist-directory | plist-database (default: memory).")
    var backend: String?

    @Option(help: "Run on the property-list database in this directory (written by `testbed generate --plist`) instead of generating data.")
    var plist: String?

    @Flag(help: "Run ANALYZE on the SQLite backend.")
    var analyze = false

    /// What the sources are, for a command's first line.
    func describe(_ loaded: LoadedDataset) -> String {
        if let plist { return "property-list database \(plist) (\(loaded.dataset.shape))" }
        return "\(loaded.dataset.shape) rows \(rows) seed \(seed)"
    }

    /// Finds the query, loads the dataset it needs and parses the query against it, or
    /// exits 2 naming what was wrong.
    func loadAndParse(query name: String) throws -> (CatalogQuery, LoadedDataset, Query) {
        let (catalogQuery, loaded) = try load(query: name)
        do {
            return (catalogQuery, loaded, try catalogQuery.parse(catalog: loaded.catalog))
        } catch let error as QueryError {
            // The query was checked against its shape's tables before the database was
            // opened, so a relation missing now is one the database lacks: say what it holds.
            guard let plist, "\(error)".contains("unknown relation") else { throw usageFailure("\(error)") }
            let holds = loaded.catalog.names.map { "'\($0)'" }.joined(separator: ", ")
            throw usageFailure("\(error); --plist: the database \(Printable.quoted(plist)) holds \(holds.isEmpty ? "no relation" : holds), "
                + "not the tables of shape \(loaded.dataset.shape) the query reads")
        }
    }

    /// Finds the query and loads the dataset it needs, or exits 2 naming what was wrong.
    /// Options are checked before the query is looked up, the parameters against the shape
    /// once it is known, then the query text and the dataset's memory before anything is
    /// generated.
    func load(query name: String) throws -> (CatalogQuery, LoadedDataset) {
        let backend = try naming("--backend") { () throws -> Backend in
            guard let chosen = Backend(rawValue: self.backend ?? "memory") else {
                throw WorkloadError.badParameter(name: "backend", value: self.backend ?? "", expected: Backend.namesText)
            }
            return chosen
        }
        if analyze, plist == nil, backend != .sqlite {
            throw usageFailure("--analyze runs ANALYZE on the SQLite backend; give --backend sqlite")
        }
        try checkRows(rows)
        let chosen = try naming("--shape") { try shape.map(Shape.named) }
        let parameters = try naming("--param") { try ShapeParameters(assignments: self.parameters) }
        do {
            let catalogQuery = try QueryCatalog.find(name)
            guard let shape = chosen ?? catalogQuery.shape else {
                // One byte-order mark is dropped; a second stands before the `#` and hides the line.
                let hidden = catalogQuery.text.unicodeScalars.first == "\u{FEFF}"
                    ? " (it begins with a second byte-order mark, U+FEFF, before the `# shape:` line; remove it)" : ""
                throw WorkloadError.output("\(catalogQuery.path) has no `# shape:` line\(hidden); give --shape")
            }
            try naming("--param") { try shape.validate(rows: rows, parameters: parameters) }
            // Query text is checked before the dataset, which can take minutes, is generated.
            _ = try catalogQuery.parse(catalog: shape.parsingProbe())
            if let plist {
                guard self.backend == nil, !analyze else {
                    throw usageFailure("--plist DIR runs on that database's files; it cannot be combined with --backend or --analyze")
                }
                // The database's rows are what they are: a size, seed or parameter would be ignored.
                let given = ["--rows", "--seed", "--param"].filter(givenOnCommandLine)
                guard given.isEmpty else {
                    throw usageFailure("--plist DIR runs on that database's rows; \(given.joined(separator: ", ")) would do nothing there; drop "
                        + (given.count == 1 ? "it" : "them"))
                }
                return (catalogQuery, try LoadedDataset(plistDatabase: plist, shape: shape))
            }
            let loaded = try LoadedDataset.generate(
                shape, rows: rows, seed: seed, parameters: parameters, backend: backend, analyze: analyze)
            return (catalogQuery, loaded)
        } catch let error as WorkloadError {
            throw usageFailure("\(error)")
        } catch let error as FileSystemError {
            throw usageFailure("\(error)")
        }
    }
}

/// `--rows` within every shape's range, or exit 2 naming it.
func checkRows(_ rows: Int) throws {
    guard Shape.rowRange.contains(rows) else {
        throw usageFailure("--rows: '\(rows)' is not a dataset size; expected an integer from \(rowRangeText)")
    }
}

/// `body`'s result; a mistake in an option's value (a workload or flag error) becomes exit 2
/// with the option named as its place: `--preset: unknown preset …`, and for a parameter
/// its name too, `--param roots: '-1' is not valid; …`. Every command converts option
/// errors here, so none reports a value without saying which option it came from.
func naming<T>(_ option: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as WorkloadError {
        guard let (name, problem) = error.parameterProblem else { throw usageFailure("\(option): \(error)") }
        throw usageFailure((option == "--param" ? "--param \(name)" : option) + ": " + problem)
    } catch let error as FlagError {
        throw usageFailure("\(option): \(error)")
    }
}

/// The row counts every shape accepts, as help text states them.
let rowRangeText = "\(Shape.rowRange.lowerBound) to \(Shape.rowRange.upperBound)"
