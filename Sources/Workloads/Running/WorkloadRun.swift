import PlistStore
import QueryEngine
import Relational
import SQLiteStore

/// Where query sources live.
public enum Backend: String, CaseIterable, Sendable {
    case memory
    case sqlite
    case plistFile = "plist-file"
    case plistDirectory = "plist-directory"
    case plistDatabase = "plist-database"

    /// The property-list layout of a plist backend.
    public var plistLayout: PlistLayout? { PlistLayout(rawValue: rawValue) }

    /// Every backend's name, for messages: `memory | sqlite | …`.
    public static var namesText: String { allCases.map(\.rawValue).joined(separator: " | ") }
}

/// A dataset loaded into one backend, ready to parse and run queries against.
public final class LoadedDataset {
    public let dataset: Dataset
    public let backend: Backend
    public let catalog: RelationCatalog
    /// Kept open while the SQLite sources are in use.
    public let database: SQLiteDatabase?
    /// The property-list files (in a temporary directory) of the plist backends.
    public let plist: PlistDataset?

    /// Refuses (`WorkloadError.insufficientMemory`) a load that would not fit in memory.
    public init(_ dataset: Dataset, backend: Backend, analyze: Bool = false, memory: MachineMemory = .current()) throws {
        try dataset.checkLoadFits(into: backend, memory: memory)
        self.dataset = dataset
        self.backend = backend
        switch backend {
        case .memory:
            catalog = try dataset.memoryRelations()
            database = nil
            plist = nil
        case .sqlite:
            let (db, catalog) = try dataset.sqliteRelations(analyze: analyze)
            self.catalog = catalog
            database = db
            plist = nil
        case .plistFile, .plistDirectory, .plistDatabase:
            let files = try PlistDataset(dataset, layout: backend.plistLayout ?? .database)
            catalog = files.catalog
            database = nil
            plist = files
        }
    }

    /// The property-list database in `root` as the sources (`--plist DIR`): nothing is
    /// generated, so `dataset` holds no tables, only `shape`.
    public init(plistDatabase root: String, shape: Shape) throws {
        let files = try PlistDataset(opening: root)
        dataset = Dataset(shape: shape, rowsRequested: 0, seed: 0, parameters: ShapeParameters(), tables: [])
        backend = .plistDatabase
        catalog = files.catalog
        database = nil
        plist = files
    }

    /// Generates `shape`'s dataset and loads it into `backend`. Refuses
    /// (`WorkloadError.insufficientMemory`) before generating anything when the dataset and
    /// its load together are estimated not to fit, the same check `generate` makes for
    /// its output: checking only after generating would let a request that cannot fit run
    /// for minutes and exhaust memory first.
    public static func generate(
        _ shape: Shape, rows: Int, seed: UInt64, parameters: ShapeParameters = ShapeParameters(), backend: Backend,
        analyze: Bool = false, memory: MachineMemory = .current()
    ) throws -> LoadedDataset {
        try shape.checkFitsInMemory(rows: rows, parameters: parameters, use: .load(backend), memory: memory)
        let dataset = try shape.generate(rows: rows, seed: seed, parameters: parameters, memory: memory)
        return try LoadedDataset(dataset, backend: backend, analyze: analyze)
    }

    /// Parses `query` against this dataset's tables and runs it with `engine`.
    public func run(_ query: CatalogQuery, engine: QueryEngine) throws -> (Query, QueryRun) {
        let parsed = try query.parse(catalog: catalog)
        return (parsed, try engine.run(parsed.relations))
    }
}

/// Text for `testbed query`: each output as a table, then the counters.
public func renderRun(_ query: Query, _ run: QueryRun) -> String {
    var out = ""
    // Both computed once: per output, each made many outputs quadratic (`results` decodes
    // every output's rows each time it is read).
    let names = query.outputNames
    let results = run.results
    for (i, output) in query.outputs.enumerated() {
        let rows = i < results.count ? results[i] : []
        out += "== \(names[i]) (\(rows.count) row\(rows.count == 1 ? "" : "s"))\n"
        out += TablePrinter.render(scheme: output.relation.scheme, rows: rows)
        out += "\n"
    }
    out += "== counters\n"
    let width = run.counters.columns.map(\.name.count).max() ?? 0
    for (name, value) in run.counters.columns {
        out += name + String(repeating: " ", count: width - name.count) + "  \(value)\n"
    }
    out += "initiator order" + String(repeating: " ", count: max(0, width - 15)) + "  " + run.counters.initiatorOrder.joined(separator: ", ") + "\n"
    let c = run.counters
    out += "growth budget" + String(repeating: " ", count: max(0, width - 13))
        + "  \(c.growthBudget) nodes, \(c.nodesCopied) copied, \(c.copiesRefused) cop\(c.copiesRefused == 1 ? "y" : "ies") refused\n"
    let t = run.timings
    out += "time (µs)" + String(repeating: " ", count: max(0, width - 9))
        + "  plan \(Int(t.planMicroseconds)), optimize \(Int(t.optimizeMicroseconds)), run \(Int(t.runMicroseconds)), total \(Int(t.totalMicroseconds))\n"
    out += renderPassesAndHooks(run)
    return out
}

/// Where optimizer time went: each pass that ran, then each heuristic hook that was called
/// (time inside it, excluding hooks it triggered), as `passes.csv` has them.
public func renderPassesAndHooks(_ run: QueryRun) -> String {
    var lines: [(String, String)] = run.passReports.map {
        ("pass " + $0.name, "\($0.changes) change\($0.changes == 1 ? "" : "s"), \(microseconds($0.microseconds)) µs")
    }
    lines += run.hookReports.map {
        ("hook " + $0.name, "\($0.calls) call\($0.calls == 1 ? "" : "s"), \(microseconds($0.microseconds)) µs")
    }
    guard !lines.isEmpty else { return "== passes and hooks\nnone ran\n" }
    let width = lines.map(\.0.count).max() ?? 0
    return "== passes and hooks\n" + lines.map { $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + $0.1 + "\n" }.joined()
}

private func microseconds(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}
