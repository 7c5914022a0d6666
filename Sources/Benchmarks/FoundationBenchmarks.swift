// Foundation benchmarks (issue 2): bulk load and indexed lookup on a 1M-row memory table,
// and the reference evaluator's hash equijoin of two 100k-row relations.
import Relational
import Workloads

let foundationSuite = BenchmarkSuite(
    name: "foundation",
    summary: "1M-row memory-table load and indexed lookup; 100k x 100k reference equijoin",
    run: runFoundationBenchmarks
)

/// `--quick` divides every size by 10 (a smoke run; the targets apply to the full sizes).
private func runFoundationBenchmarks(_ arguments: [String]) throws {
    var scale = 1
    for argument in arguments {
        switch argument {
        case "--quick": scale = 10
        default: throw BenchmarkError.usage("foundation: unknown argument '\(argument)' (known: --quick)")
        }
    }
    let loadRows = 1_000_000 / scale
    let joinRows = 100_000 / scale
    var report = BenchmarkReport()

    // 1. Load: documents(id, name, parent_id) rows already built; time the inserts into a
    //    table indexed on id (set check + index upkeep).
    let scheme = try Scheme(["id", "name", "parent_id"])
    let rows = documentRows(count: loadRows)
    // Timed by hand so that freeing the previous repetition's table is not counted.
    var table = try MemoryTable(name: "documents", scheme: scheme)
    var loadSamples: [Duration] = []
    let clock = ContinuousClock()
    for repetition in 0..<4 {
        table = try MemoryTable(name: "documents", scheme: scheme, indexedAttributes: ["id"])
        let start = clock.now
        table.reserveCapacity(rows.count)
        try table.add(contentsOf: rows)
        let elapsed = clock.now - start
        consume(table.count)
        if repetition > 0 { loadSamples.append(elapsed) }  // the first is a warm-up
    }
    let load = Measurement(label: "load \(loadRows) rows, index on id", samples: loadSamples)
    report.add(load, target: scale == 1 ? .seconds(2) : nil)

    // 2. Indexed equality lookup: one timed lookup per repetition, keys spread over the table.
    var generator = SplitMix64Generator(seed: 42)
    let lookup = try measure("indexed lookup id == k (\(loadRows) rows)", repetitions: 100_000, warmup: 1000) {
        let key = Value.integer(Int64(generator.next(below: UInt64(loadRows))))
        consume(try table.lookup("id", key).count)
    }
    report.add(lookup, target: scale == 1 ? .microseconds(5) : nil, note: "MemoryTable.lookup")

    // The same through a filtered cursor, the way the engine fetches (compiles the filter).
    let cursor = try measure("cursor filter id == k (\(loadRows) rows)", repetitions: 20_000, warmup: 500) {
        let key = Value.integer(Int64(generator.next(below: UInt64(loadRows))))
        consume(try table.fetchAll(filter: Attribute("id") *== key).count)
    }
    report.add(cursor, note: "makeCursor + drain")

    // 3. Reference evaluator: equijoin of people(id, name) with items(owner_id, item) on
    //    id = owner_id, each side joinRows rows, every item matching one person.
    let people = try MemoryTable(name: "people", scheme: Scheme(["id", "name"]))
    let items = try MemoryTable(name: "items", scheme: Scheme(["item", "owner_id"]))
    for i in 0..<joinRows {
        try people.add([.integer(Int64(i)), .text("person \(i)")])
        let owner = Int64(generator.next(below: UInt64(joinRows)))
        try items.add([.text("item \(i)"), .integer(owner)])
    }
    let joined = try Relation(source: people).equijoin(Relation(source: items), matching: [JoinPair("id", "owner_id")])
    var resultRows = 0
    let join = try measure("reference equijoin \(joinRows) x \(joinRows)", repetitions: 5, warmup: 1) {
        resultRows = try ReferenceEvaluator.evaluate(joined).count
        consume(resultRows)
    }
    report.add(join, target: scale == 1 ? .seconds(1) : nil, note: "\(resultRows) result rows")

    report.printTable(title: "foundation")
    if !report.missedTargets.isEmpty {
        print("missed targets: " + report.missedTargets.joined(separator: "; "))
    }
}

/// `count` rows of documents(id, name, parent_id) in scheme order [id, name, parent_id]:
/// ids 0..<count, one root per 100 rows (null parent), others pointing at an earlier id.
func documentRows(count: Int) -> [Row] {
    var generator = SplitMix64Generator(seed: 7)
    var rows: [Row] = []
    rows.reserveCapacity(count)
    for i in 0..<count {
        let parent: Value = i % 100 == 0 ? .null : .integer(Int64(generator.next(below: UInt64(i))))
        rows.append(Row([.integer(Int64(i)), .text("document \(i)"), parent]))
    }
    return rows
}

enum BenchmarkError: Error, CustomStringConvertible {
    case usage(String)
    var description: String {
        switch self {
        case let .usage(message): return message
        }
    }
}
