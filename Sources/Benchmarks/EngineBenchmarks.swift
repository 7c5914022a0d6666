// Engine benchmarks (issue 3): seed 000's document scenario end to end (plan + optimize +
// run) on a memory table, with all-on and with subtree copying off, next to SQLite running
// the same query translated to SQL, before and after ANALYZE.
import QueryEngine
import Relational
import SQLiteStore

let engineSuite = BenchmarkSuite(
    name: "engine",
    summary: "seed document scenario: all-on vs subtree-copying off vs SQLite (with/without ANALYZE)",
    run: runEngineBenchmarks
)

/// `--quick` stops at 100k and skips the slow copying-off run at 1M.
private func runEngineBenchmarks(_ arguments: [String]) throws {
    var sizes = [1_000, 100_000, 1_000_000]
    for argument in arguments {
        switch argument {
        case "--quick": sizes = [1_000, 100_000]
        default: throw BenchmarkError.usage("engine: unknown argument '\(argument)' (known: --quick)")
        }
    }
    let catalog = HeuristicCatalog.standard
    let allOn = QueryEngine(flags: try catalog.preset("all-on"))
    let noCopy = QueryEngine(flags: try catalog.flagSet(preset: "all-on", disable: ["subtree-copying"]))
    var report = BenchmarkReport()
    var allOnMedians: [Int: Duration] = [:]

    for n in sizes {
        let rows = documentRows(count: n)
        let documents = try MemoryTable(name: "documents", scheme: Scheme(["id", "name", "parent_id"]),
                                        indexedAttributes: ["id", "parent_id"])
        documents.reserveCapacity(n)
        try documents.add(contentsOf: rows)
        let query = try seedQuery(documents: documents)

        var counters = RunCounters()
        let fast = try measure("all-on, \(n) documents", repetitions: 2_000, warmup: 200) {
            let run = try allOn.run([query])
            counters = run.counters
            consume(run.results[0].count)
        }
        allOnMedians[n] = fast.median
        report.add(fast, target: n == 100_000 ? .microseconds(50) : nil,
                   note: "source rows \(counters.sourceRowsRead), copies \(counters.subtreesCopied)")

        if n <= 100_000 {
            let slow = try measure("subtree-copying off, \(n) documents", repetitions: n >= 100_000 ? 5 : 50, warmup: 1) {
                let run = try noCopy.run([query])
                counters = run.counters
                consume(run.results[0].count)
            }
            let ratio = slow.median.seconds / fast.median.seconds
            report.add(slow, note: "source rows \(counters.sourceRowsRead); \(Int(ratio))x all-on")
        }

        if n == 100_000 {
            try addSQLiteBaselines(rows: rows, to: &report)
        }
    }
    if let small = allOnMedians[1_000], let large = allOnMedians[sizes.last ?? 1_000] {
        print("all-on flatness: \(sizes.last ?? 0) documents take \(fmt(large.seconds / small.seconds))x the 1k figure (target <= 1.5x)")
    }
    report.printTable(title: "engine (seed document scenario)")
}

/// selected id → its document → parent_id → renamed to id → documents again.
private func seedQuery(documents: any SourceRelation, selected: Relation? = nil) throws -> Relation {
    let docs = Relation(source: documents)
    let selectedIDs = try selected ?? Relation(source: MemoryTable(name: "selected_documents", columns: ["id"], rows: [[3]]))
    let selectedDoc = try selectedIDs.join(docs)
    let parentID = try selectedDoc.project(["parent_id"]).rename(["parent_id": "id"])
    return try parentID.join(docs)
}

private func addSQLiteBaselines(rows: [Row], to report: inout BenchmarkReport) throws {
    let db = try SQLiteDatabase.inMemory()
    let documents = try db.createTable(
        "documents", scheme: Scheme(["id", "name", "parent_id"]), primaryKey: ["id"], indexes: [["parent_id"]])
    _ = try documents.bulkLoad(rows, assumeUnique: true)
    let selected = try db.createTable("selected_documents", scheme: Scheme(["id"]), primaryKey: ["id"])
    _ = try selected.bulkLoad([Row([3])], assumeUnique: true)
    let query = try seedQuery(documents: documents, selected: Relation(source: selected))
    let translation = try SQLTranslator.translate(query)
    for (label, analyzed) in [("sqlite", false), ("sqlite-analyzed", true)] {
        if analyzed { try db.analyze() }
        let reps = analyzed ? 2_000 : 50
        let m = try measure("\(label), \(rows.count) documents", repetitions: reps, warmup: 5) {
            consume(try db.run(translation).count)
        }
        report.add(m, note: "same query as one SQL statement")
    }
}

private func fmt(_ x: Double) -> String {
    let scaled = (x * 100).rounded() / 100
    return String(scaled)
}
