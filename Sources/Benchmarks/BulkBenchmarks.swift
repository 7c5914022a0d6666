// Bulk queries side by side (issue 10's benchmarks): the testbed under all-off and all-on,
// SQLite before and after ANALYZE, and DuckDB on one thread, on the same generated data in
// one run. Results are checked to agree (row counts and an order-independent hash) before
// anything is timed. `scripts/bench-bulk.sh` builds release and runs this suite.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Engines
import QueryEngine
import Relational
import SQLiteStore
import Workloads

let bulkSuite = BenchmarkSuite(
    name: "bulk",
    summary: "unselective and catalog queries: testbed all-off/all-on vs SQLite (±ANALYZE) vs DuckDB, plus memory; markdown report",
    run: runBulkBenchmarks,
    includedInAll: false
)

/// A failure while running (as opposed to a usage mistake).
struct BulkFailure: Error, CustomStringConvertible {
    let description: String
}

struct BulkOptions {
    var sizes = [100_000, 1_000_000]
    var repetitions = 5
    var seedRepetitions = 1_000
    var seed: UInt64 = 42
    var out: String?
    var python = "python3"
    var helper = defaultRepositoryPath("scripts/engines/duckdb_helper.py")
    var bulkQueries = defaultRepositoryPath("Workloads/bulk")
    var duckdb = true
    var catalog = true
    var memoryRows = 1_000_000
    var decodeRows = false

    static let usage = """
        testbed-bench bulk [--sizes 100000,1000000] [--reps N] [--seed-reps N] [--seed S] [--out FILE.md]
                           [--memory-rows N] [--no-catalog] [--no-duckdb] [--python PATH] [--duckdb-helper PATH]
                           [--bulk-queries DIR] [--decode-rows]

          --sizes          documents (and rows of every catalog shape) per size, comma-separated
          --reps           timed repetitions per query and engine (default 5), after one untimed checking run
          --seed-reps      repetitions of the seed query (default 1000)
          --seed           data seed (default 42)
          --out            the markdown report (default Results/bench/<UTC time>/bulk.md)
          --memory-rows    documents for the memory measurement in a fresh process (default 1000000; 0 skips it)
          --no-catalog     only the unselective queries and the seed query
          --no-duckdb      without DuckDB
          --python         the Python that runs the DuckDB helper (default python3)
          --duckdb-helper  the helper script (default scripts/engines/duckdb_helper.py)
          --bulk-queries   the unselective queries' directory (default Workloads/bulk)
          --decode-rows    time the testbed with every result row decoded into a `Row` (default: the result
                           as the run leaves it, column batches whose rows decode on demand, counted)
        """

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ option: String) throws -> String {
            guard let v = rest.popFirst() else { throw BenchmarkError.usage("bulk: \(option) needs a value\n\(BulkOptions.usage)") }
            return v
        }
        func count(_ option: String, _ text: String, _ range: ClosedRange<Int>) throws -> Int {
            guard let n = Int(text), range.contains(n) else {
                throw BenchmarkError.usage("bulk: \(option) needs an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
            }
            return n
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--sizes":
                let text = try value(argument)
                sizes = try text.split(separator: ",", omittingEmptySubsequences: false).map {
                    try count("--sizes", String($0), 1...Shape.rowRange.upperBound)
                }
            case "--reps": repetitions = try count(argument, try value(argument), 1...1_000)
            case "--seed-reps": seedRepetitions = try count(argument, try value(argument), 1...1_000_000)
            case "--seed":
                let text = try value(argument)
                guard let s = UInt64(text) else { throw BenchmarkError.usage("bulk: --seed needs a non-negative integer, got '\(text)'") }
                seed = s
            case "--out":
                let path = try value(argument)
                guard !path.isEmpty, path.hasSuffix(".md") else {
                    throw BenchmarkError.usage("bulk: --out needs a file path ending in .md, got '\(path)'")
                }
                out = path
            case "--memory-rows": memoryRows = try count(argument, try value(argument), 0...Shape.rowRange.upperBound)
            case "--no-catalog": catalog = false
            case "--decode-rows": decodeRows = true
            case "--no-duckdb": duckdb = false
            case "--python": python = try value(argument)
            case "--duckdb-helper": helper = try value(argument)
            case "--bulk-queries": bulkQueries = try value(argument)
            default: throw BenchmarkError.usage("bulk: unknown argument '\(argument)'\n\(BulkOptions.usage)")
            }
        }
    }
}

/// `relative` under the working directory if it exists there, else under the source tree
/// this file was built from.
func defaultRepositoryPath(_ relative: String) -> String {
    if access(relative, F_OK) == 0 { return relative }
    var path = #filePath
    for _ in 0..<3 {
        if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
    }
    return path + "/" + relative
}

/// The engines and configurations a query is timed under.
enum BulkEngine: String, CaseIterable {
    case allOff = "all-off"
    case allOn = "all-on"
    case sqlite = "sqlite"
    case sqliteAnalyzed = "sqlite analyzed"
    case duckdbRows = "duckdb fetchall"
    case duckdbCount = "duckdb count"
}

/// One query's figures at one size.
struct BulkResult {
    enum Group { case unselective, catalog, seed }
    let group: Group
    let query: String
    let shape: Shape
    let size: Int
    var timings: [BulkEngine: Measurement] = [:]
    var rows: [BulkEngine: Int] = [:]
    var hashes: [BulkEngine: String] = [:]

    func median(_ engine: BulkEngine) -> Duration? { timings[engine]?.median }

    func ratio(_ a: BulkEngine, _ b: BulkEngine) -> Double? {
        guard let x = median(a), let y = median(b), y > .zero else { return nil }
        return x.seconds / y.seconds
    }

    /// Engines whose row count or hash differs from the testbed's (all-off, else all-on).
    var disagreements: [String] {
        let reference: BulkEngine = rows[.allOff] != nil ? .allOff : .allOn
        guard let expected = rows[reference] else { return [] }
        var out: [String] = []
        for engine in BulkEngine.allCases where engine != reference {
            if let r = rows[engine], r != expected {
                out.append("\(engine.rawValue): \(r) rows, \(reference.rawValue) \(expected)")
            } else if let h = hashes[engine], let e = hashes[reference], h != e {
                out.append("\(engine.rawValue): hash \(h), \(reference.rawValue) \(e)")
            }
        }
        return out
    }
}

/// One generated dataset loaded into every engine.
private final class LoadedShape {
    let dataset: Dataset
    let memory: RelationCatalog
    let database: SQLiteDatabase
    let sqlite: RelationCatalog
    var analyzed = false

    init(shape: Shape, rows: Int, seed: UInt64, duckdb: DuckDBClient?, scratch: String) throws {
        dataset = try shape.generate(rows: rows, seed: seed)
        memory = try dataset.memoryRelations()
        (database, sqlite) = try dataset.sqliteRelations(analyze: false)
        if let duckdb {
            let directory = scratch + "/\(shape)-\(rows)"
            defer { removeCSVDirectory(directory, tables: dataset.tables.map(\.name)) }
            try duckdb.load(dataset, csvDirectory: directory)
        }
    }
}

private func removeCSVDirectory(_ directory: String, tables: [String]) {
    for name in tables { unlink(directory + "/" + name + ".csv") }
    unlink(directory + "/manifest.txt")
    rmdir(directory)
}

private func runBulkBenchmarks(_ arguments: [String]) throws {
    if arguments.contains("--help") || arguments.contains("-h") {
        print(BulkOptions.usage)
        return
    }
    let options = try BulkOptions(arguments)
    let outPath = try options.out ?? defaultReportPath()
    try checkReportPath(outPath)
    let catalog = HeuristicCatalog.standard
    let allOff = QueryEngine(flags: try catalog.preset("all-off"))
    let allOn = QueryEngine(flags: try catalog.preset("all-on"))
    let bulk = try QueryCatalog.load(directory: options.bulkQueries)
    let catalogQueries = options.catalog ? try QueryCatalog.load() : []
    let started = utcTimestamp()

    var memory: MemoryFigures?
    if options.memoryRows > 0 {
        progress("memory: \(options.memoryRows) documents into memory tables, in a fresh process")
        memory = try measureMemoryInChild(rows: options.memoryRows, seed: options.seed)
    }

    var duckdb: DuckDBClient?
    if options.duckdb {
        let helper = try DuckDBClient(python: options.python, script: options.helper)
        try helper.setThreads(1)
        duckdb = helper
    }
    let scratch = try makeScratchDirectory()
    defer { rmdir(scratch) }

    var results: [BulkResult] = []
    var sql: [String: String] = [:]
    for size in options.sizes {
        var shapes: [Shape] = [.documents]
        for q in catalogQueries { if let s = q.shape, !shapes.contains(s) { shapes.append(s) } }
        for shape in shapes {
            progress("\(shape), \(size) rows: generating and loading into memory tables, SQLite and \(duckdb == nil ? "no DuckDB" : "DuckDB")")
            let loaded = try LoadedShape(shape: shape, rows: size, seed: options.seed, duckdb: duckdb, scratch: scratch)
            var entries: [(BulkResult.Group, CatalogQuery, [BulkEngine])] = []
            if shape == .documents {
                entries += bulk.map { (.unselective, $0, [.allOff, .allOn, .sqlite, .duckdbRows, .duckdbCount]) }
            }
            entries += catalogQueries.filter { $0.shape == shape }.map { (.catalog, $0, [.allOff, .sqlite, .duckdbRows, .duckdbCount]) }
            if shape == .documents, let seedQuery = try? QueryCatalog.find("selected-document-parent") {
                entries.append((.seed, seedQuery, [.allOn]))
            }
            var pending: [BulkResult] = []
            for (group, query, engines) in entries {
                let reps = group == .seed ? options.seedRepetitions : options.repetitions
                progress("  \(query.name) (\(group)): \(engines.filter { duckdb != nil || ![.duckdbRows, .duckdbCount].contains($0) }.map(\.rawValue).joined(separator: ", "))")
                var result = BulkResult(group: group, query: query.name, shape: shape, size: size)
                try time(query, on: loaded, engines: engines, repetitions: reps, allOff: allOff, allOn: allOn,
                         decodeRows: options.decodeRows, duckdb: duckdb, into: &result, sql: &sql)
                pending.append(result)
            }
            // ANALYZE once, after every query ran without it.
            try loaded.database.analyze()
            for i in pending.indices {
                let reps = pending[i].group == .seed ? options.seedRepetitions : options.repetitions
                try time(entries[i].1, on: loaded, engines: [.sqliteAnalyzed], repetitions: reps, allOff: allOff, allOn: allOn,
                         decodeRows: options.decodeRows, duckdb: duckdb, into: &pending[i], sql: &sql)
            }
            results += pending
        }
    }

    let environment = BulkEnvironment(
        date: started, repetitions: options.repetitions, seedRepetitions: options.seedRepetitions, seed: options.seed,
        decodeRows: options.decodeRows, sqliteVersion: SQLiteDatabase.libraryVersion, duckdbVersion: duckdb?.version, pythonVersion: duckdb?.python)
    let report = BulkReport(environment: environment, results: results, memory: memory, sql: sql).markdown
    print(report)
    try writeReport(report, to: outPath)
    progress("report written to \(outPath)")
    let disagreements = results.flatMap { r in r.disagreements.map { "\(r.query) at \(r.size): \($0)" } }
    if !disagreements.isEmpty {
        throw BulkFailure(description: "engines disagree:\n  " + disagreements.joined(separator: "\n  "))
    }
}

/// Times `query` under `engines`. The first run of each engine is untimed: it gives the
/// row count and result hash the engines are compared on (every testbed row decoded), and
/// warms caches. A timed testbed run leaves its result as column batches (rows decode on
/// demand) and counts it, unless `decodeRows`.
private func time(
    _ query: CatalogQuery, on loaded: LoadedShape, engines: [BulkEngine], repetitions: Int,
    allOff: QueryEngine, allOn: QueryEngine, decodeRows: Bool, duckdb: DuckDBClient?,
    into result: inout BulkResult, sql: inout [String: String]
) throws {
    let label = "\(query.name) \(result.size)"
    for engine in engines {
        switch engine {
        case .allOff, .allOn:
            // Prepared once and run many times, as SQLite's statements are (its statement cache).
            var runner = engine == .allOff ? allOff : allOn
            runner.timesHooks = false
            let prepared = try runner.prepare(try query.parse(catalog: loaded.memory).relations)
            let first = try prepared.run()
            result.rows[engine] = first.results.reduce(0) { $0 + $1.count }
            result.hashes[engine] = first.results.map(ResultHash.of).joined(separator: ",")
            result.timings[engine] = try measure("\(label) \(engine.rawValue)", repetitions: repetitions, warmup: 0) {
                let run = try prepared.run()
                consume(decodeRows ? run.results.reduce(0) { $0 + $1.count } : run.resultRows.reduce(0) { $0 + $1.count })
            }
        case .sqlite, .sqliteAnalyzed:
            let translations = try sqliteTranslations(query, loaded)
            if result.group == .unselective { sql[query.name] = translations.map(\.sql).joined(separator: ";\n") }
            let first = try translations.map { try loaded.database.run($0) }
            result.rows[engine] = first.reduce(0) { $0 + $1.count }
            result.hashes[engine] = first.map(ResultHash.of).joined(separator: ",")
            result.timings[engine] = try measure("\(label) \(engine.rawValue)", repetitions: repetitions, warmup: 0) {
                for t in translations { consume(try loaded.database.run(t).count) }
            }
        case .duckdbRows, .duckdbCount:
            guard let duckdb else { continue }
            let translations = try sqliteTranslations(query, loaded)
            var samples = [Duration](repeating: .zero, count: repetitions)
            var rows = 0
            var hashes: [String] = []
            for t in translations {
                let timing = try duckdb.query(
                    sql: t.sql, parameters: t.parameters, mode: engine == .duckdbRows ? "rows" : "count",
                    runs: repetitions, warmup: 0, hash: engine == .duckdbRows)
                guard timing.samples.count == repetitions else {
                    throw BulkFailure(description: "DuckDB helper returned \(timing.samples.count) times, expected \(repetitions)")
                }
                for i in samples.indices { samples[i] += timing.samples[i] }
                rows += timing.rows
                hashes.append(timing.hash ?? "")
            }
            result.rows[engine] = rows
            if engine == .duckdbRows { result.hashes[engine] = hashes.joined(separator: ",") }
            result.timings[engine] = Measurement(label: "\(label) \(engine.rawValue)", samples: samples)
        }
    }
}

private func sqliteTranslations(_ query: CatalogQuery, _ loaded: LoadedShape) throws -> [SQLTranslation] {
    try query.parse(catalog: loaded.sqlite).relations.map { try SQLTranslator.translate($0) }
}

/// Starts this executable again as `bulk-memory`, so the resident set holds nothing else.
private func measureMemoryInChild(rows: Int, seed: UInt64) throws -> MemoryFigures {
    let executable = access("/proc/self/exe", F_OK) == 0 ? selfExecutablePath() : CommandLine.arguments[0]
    let child = try ChildProcess(arguments: [executable, "bulk-memory", "--rows", String(rows), "--seed", String(seed)])
    var figures: MemoryFigures?
    while let line = try child.readLine() {
        if line.hasPrefix("{") { figures = try MemoryFigures(json: try JSON.parse(line)) }
    }
    let status = child.finish()
    guard status == 0, let figures else {
        throw BulkFailure(description: "the bulk-memory child failed (exit status \(status))")
    }
    return figures
}

private func selfExecutablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

private func makeScratchDirectory() throws -> String {
    var base = "/tmp"
    if let tmp = getenv("TMPDIR"), tmp.pointee != 0 { base = String(cString: tmp) }
    var template = Array((base + "/testbed-bulk-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
        throw BulkFailure(description: "cannot create a scratch directory under \(base) (errno \(errno))")
    }
    return String(cString: made)
}

/// `Results/bench/<UTC timestamp>/bulk.md` in a fresh directory (`-2`, `-3`, ... when
/// taken), the layout `testbed run` uses, so runs stay out of git beside curated ones.
private func defaultReportPath() throws -> String {
    for directory in ["Results", "Results/bench"] where access(directory, F_OK) != 0 {
        guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
            throw BulkFailure(description: "cannot create \(directory) (errno \(errno))")
        }
    }
    let base = "Results/bench/" + utcTimestamp(compact: true)
    for attempt in 1...100 {
        let directory = attempt == 1 ? base : base + "-\(attempt)"
        if mkdir(directory, 0o755) == 0 { return directory + "/bulk.md" }
        guard errno == EEXIST else { throw BulkFailure(description: "cannot create \(directory) (errno \(errno))") }
    }
    throw BulkFailure(description: "cannot find a free directory name beside \(base)")
}

/// The report's directory must exist and the path must not be a directory.
private func checkReportPath(_ path: String) throws {
    let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    var status = stat()
    guard stat(parent.isEmpty ? "/" : parent, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
        throw BenchmarkError.usage("bulk: --out: the directory of '\(path)' does not exist")
    }
    if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
        throw BenchmarkError.usage("bulk: --out: '\(path)' is a directory; give a file path ending in .md")
    }
}

/// Written to a temporary sibling and renamed into place, so a failure leaves no half file.
private func writeReport(_ text: String, to path: String) throws {
    let temporary = path + ".tmp-\(getpid())"
    guard let file = fopen(temporary, "w") else { throw BulkFailure(description: "cannot write \(temporary) (errno \(errno))") }
    let bytes = Array(text.utf8)
    let written = fwrite(bytes, 1, bytes.count, file)
    let closed = fclose(file)
    guard written == bytes.count, closed == 0, rename(temporary, path) == 0 else {
        unlink(temporary)
        throw BulkFailure(description: "cannot write \(path) (errno \(errno))")
    }
}

/// `2026-11-23 07:55 UTC`, or `20261123T075500Z` with `compact`.
func utcTimestamp(compact: Bool = false) -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    let format = compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%d %H:%M UTC"
    let n = strftime(&buffer, buffer.count, format, &parts)
    return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Progress goes to standard error so standard output holds only the report.
private func progress(_ message: String) {
    printError("bulk: " + message)
}
