// A small driver for profiling the testbed on the bulk queries: loads N documents once, then
// runs each bulk query once inside `bulkProfileQueries` (`--decode-rows`: decoding every result row), a symbol callgrind can be told to
// collect in alone (`--toggle-collect='*bulkProfileQueries*'`), so generation and loading
// stay out of the profile. `scripts/bench-bulk.sh --profile` runs it under callgrind.
// `--engine sqlite` (or `sqlite-analyzed`) runs the same queries' SQL on SQLite instead, every
// row converted into a testbed row as `testbed-bench bulk` times it, inside
// `bulkProfileQueriesSQLite` (the same toggle pattern collects it).
import QueryEngine
import Relational
import SQLiteStore
import Workloads

let profileSuite = BenchmarkSuite(
    name: "bulk-profile",
    summary: "driver for callgrind: the bulk queries once each on N documents (--rows, --preset, --disable, --query, --decode-rows, --engine testbed|sqlite|sqlite-analyzed), or one catalog query many times (--catalog-query NAME --runs N); --prepared: prepared outside the profile",
    run: runProfileDriver,
    includedInAll: false
)

private func runProfileDriver(_ arguments: [String]) throws {
    var rows = 100_000
    var preset = "all-off"
    var disabled: [String] = []
    var only: String?
    var catalogQuery: String?
    var runs = 1
    var prepared = false
    var decodeRows = false
    var sqlite: (analyze: Bool, name: String)?
    var rest = arguments[...]
    func count(_ option: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = rest.popFirst(), let n = Int(value), range.contains(n) else {
            throw BenchmarkError.usage("bulk-profile: \(option) needs a count in \(range)")
        }
        return n
    }
    func name(_ option: String) throws -> String {
        guard let value = rest.popFirst() else { throw BenchmarkError.usage("bulk-profile: \(option) needs a name") }
        return value
    }
    while let argument = rest.popFirst() {
        switch argument {
        case "--rows":
            rows = try count(argument, in: Shape.rowRange)
        case "--preset":
            preset = try name(argument)
        case "--disable":
            disabled.append(try name(argument))
        case "--decode-rows":
            decodeRows = true
        case "--query":
            only = try name(argument)
        case "--engine":
            switch try name(argument) {
            case "testbed": sqlite = nil
            case "sqlite": sqlite = (false, "sqlite")
            case "sqlite-analyzed": sqlite = (true, "sqlite analyzed")
            case let other: throw BenchmarkError.usage("bulk-profile: unknown engine '\(other)' (known: testbed, sqlite, sqlite-analyzed)")
            }
        case "--catalog-query":
            catalogQuery = try name(argument)
        case "--prepared":
            prepared = true
        case "--runs":
            runs = try count(argument, in: 1...1_000_000)
        default:
            throw BenchmarkError.usage("bulk-profile: unknown argument '\(argument)' "
                + "(known: --rows N, --preset P, --disable HEURISTIC, --query NAME, --decode-rows, --engine E, --catalog-query NAME, --runs N, --prepared)")
        }
    }
    var engine = QueryEngine(flags: try HeuristicCatalog.standard.flagSet(preset: preset, disable: disabled))
    if let catalogQuery {
        if prepared { engine.timesHooks = false }
        try profileRepeatedQuery(catalogQuery, rows: rows, runs: runs, preset: preset, engine: engine, prepared: prepared)
        return
    }
    var queries = try QueryCatalog.load(directory: defaultRepositoryPath("Workloads/bulk"))
    if let only {
        queries = queries.filter { $0.name == only }
        guard !queries.isEmpty else { throw BenchmarkError.usage("bulk-profile: no bulk query named '\(only)'") }
    }
    let dataset = try Shape.documents.generate(rows: rows, seed: 42)
    if let sqlite {
        let (database, tables) = try dataset.sqliteRelations(analyze: sqlite.analyze)
        let translations = try queries.map { try $0.parse(catalog: tables).relations.map { try SQLTranslator.translate($0) } }
        // One run first, outside the profile, so the statements are prepared and cached as in the bench.
        for translation in translations.joined() { _ = try database.run(translation) }
        let counts = try bulkProfileQueriesSQLite(translations, on: database)
        for (query, count) in zip(queries, counts) {
            print("\(query.name): \(count) rows (\(sqlite.name), \(rows) documents)")
        }
        return
    }
    let catalog = try dataset.memoryRelations()
    let parsed = try queries.map { try $0.parse(catalog: catalog) }
    let counts: [Int]
    if prepared {
        // As `testbed-bench bulk` times it: prepared outside the profile, hook clock off.
        engine.timesHooks = false
        let queries = try parsed.map { try engine.prepare($0.relations) }
        counts = try bulkProfileQueriesPrepared(queries, decodeRows: decodeRows)
    } else {
        counts = try bulkProfileQueries(parsed.map(\.relations), engine: engine, decodeRows: decodeRows)
    }
    for (query, count) in zip(queries, counts) {
        print("\(query.name): \(count) rows (\(preset), \(rows) documents)")
    }
}

@inline(never)
func bulkProfileQueries(_ queries: [[Relation]], engine: QueryEngine, decodeRows: Bool) throws -> [Int] {
    try queries.map { relations in
        let run = try engine.run(relations)
        // As the bulk bench times it: the result as column batches, or every row decoded.
        return decodeRows ? run.results.reduce(0) { $0 + $1.count } : run.resultRows.reduce(0) { $0 + $1.count }
    }
}

/// The bulk queries prepared beforehand (`--prepared`), each run once; the same toggle
/// (`*bulkProfileQueries*`) collects it.
@inline(never)
func bulkProfileQueriesPrepared(_ queries: [PreparedQuery], decodeRows: Bool) throws -> [Int] {
    try queries.map { query in
        let run = try query.run()
        return decodeRows ? run.results.reduce(0) { $0 + $1.count } : run.resultRows.reduce(0) { $0 + $1.count }
    }
}

/// The bulk queries' SQL on SQLite, each run once, every row converted into a testbed row
/// (`SQLiteDatabase.run`, as `testbed-bench bulk` times SQLite).
@inline(never)
func bulkProfileQueriesSQLite(_ queries: [[SQLTranslation]], on database: SQLiteDatabase) throws -> [Int] {
    try queries.map { translations in try translations.reduce(0) { $0 + (try database.run($1)).count } }
}

/// One catalog query (a small, selective one, say the seed query) `runs` times on one
/// dataset of its shape: what callgrind then counts, divided by `runs`, is the engine's
/// per-run cost. One untimed run first, so process-wide caches are warm. `prepared`: the
/// query is prepared once (`QueryEngine.prepare`, outside the profile) and run `runs` times
/// without hook timing, as `testbed-bench bulk` times it; else each run is `QueryEngine.run`.
private func profileRepeatedQuery(
    _ name: String, rows: Int, runs: Int, preset: String, engine: QueryEngine, prepared: Bool
) throws {
    let query = try QueryCatalog.find(name)
    guard let shape = query.shape else { throw BenchmarkError.usage("bulk-profile: catalog query '\(name)' has no shape") }
    let catalog = try shape.generate(rows: rows, seed: 42).memoryRelations()
    let relations = try query.parse(catalog: catalog).relations
    let first = try engine.run(relations).results.reduce(0) { $0 + $1.count }
    let total: Int
    if prepared {
        total = try repeatedPreparedRuns(try engine.prepare(relations), runs: runs)
    } else {
        total = try repeatedProfileRuns(relations, engine: engine, runs: runs)
    }
    print("\(name): \(first) rows per run, \(total) over \(runs) \(prepared ? "prepared " : "")runs (\(preset), \(rows) rows)")
}

@inline(never)
func repeatedPreparedRuns(_ query: PreparedQuery, runs: Int) throws -> Int {
    var total = 0
    for _ in 0..<runs { total += try query.run().results.reduce(0) { $0 + $1.count } }
    return total
}

@inline(never)
func repeatedProfileRuns(_ relations: [Relation], engine: QueryEngine, runs: Int) throws -> Int {
    var total = 0
    for _ in 0..<runs { total += try engine.run(relations).results.reduce(0) { $0 + $1.count } }
    return total
}
