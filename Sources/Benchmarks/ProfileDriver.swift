// A small driver for profiling the testbed on the bulk queries: loads N documents once, then
// runs each bulk query once inside `bulkProfileQueries` (`--decode-rows`: decoding every result row), a symbol callgrind can be told to
// collect in alone (`--toggle-collect='*bulkProfileQueries*'`), so generation and loading
// stay out of the profile. `scripts/bench-bulk.sh --profile` runs it under callgrind.
import QueryEngine
import Relational
import Workloads

let profileSuite = BenchmarkSuite(
    name: "bulk-profile",
    summary: "driver for callgrind: the bulk queries once each on N documents (--rows, --preset, --query, --decode-rows)",
    run: runProfileDriver,
    includedInAll: false
)

private func runProfileDriver(_ arguments: [String]) throws {
    var rows = 100_000
    var preset = "all-off"
    var only: String?
    var decodeRows = false
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--rows":
            guard let value = rest.popFirst(), let n = Int(value), Shape.rowRange.contains(n) else {
                throw BenchmarkError.usage("bulk-profile: --rows needs a count in \(Shape.rowRange)")
            }
            rows = n
        case "--preset":
            guard let value = rest.popFirst() else { throw BenchmarkError.usage("bulk-profile: --preset needs a name") }
            preset = value
        case "--decode-rows":
            decodeRows = true
        case "--query":
            guard let value = rest.popFirst() else { throw BenchmarkError.usage("bulk-profile: --query needs a name") }
            only = value
        default:
            throw BenchmarkError.usage("bulk-profile: unknown argument '\(argument)' (known: --rows N, --preset P, --query NAME, --decode-rows)")
        }
    }
    let engine = QueryEngine(flags: try HeuristicCatalog.standard.preset(preset))
    var queries = try QueryCatalog.load(directory: defaultRepositoryPath("Workloads/bulk"))
    if let only {
        queries = queries.filter { $0.name == only }
        guard !queries.isEmpty else { throw BenchmarkError.usage("bulk-profile: no bulk query named '\(only)'") }
    }
    let catalog = try Shape.documents.generate(rows: rows, seed: 42).memoryRelations()
    let parsed = try queries.map { try $0.parse(catalog: catalog) }
    let counts = try bulkProfileQueries(parsed.map(\.relations), engine: engine, decodeRows: decodeRows)
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
