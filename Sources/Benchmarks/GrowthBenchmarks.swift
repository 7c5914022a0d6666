// Growth benchmarks (issue 9, class 3 and the SQLite bullet of class 9): queries that share
// a node with itself at every level, whose full unsharing is exponential, and a query with
// many outputs over memory and SQLite. Plan + optimize + run, 100 documents.
import QueryEngine
import Relational
import SQLiteStore

let growthSuite = BenchmarkSuite(
    name: "growth",
    summary: "self-sharing DAGs of 60 levels under every preset; 1,000 outputs on memory vs SQLite",
    run: runGrowthBenchmarks
)

private func runGrowthBenchmarks(_ arguments: [String]) throws {
    var levels = 60
    var outputs = 1_000
    for argument in arguments {
        switch argument {
        case "--quick": (levels, outputs) = (20, 100)
        default: throw BenchmarkError.usage("growth: unknown argument '\(argument)' (known: --quick)")
        }
    }
    let rows = documentRows(count: 100)
    let documents = try MemoryTable(name: "documents", scheme: Scheme(["id", "name", "parent_id"]),
                                    indexedAttributes: ["id", "parent_id"])
    try documents.add(contentsOf: rows)
    let d = Relation(source: documents)

    // let b1 = d join d; let bK = bK-1 join bK-1; output bN select (id == 3)
    var b = try d.join(d)
    for _ in 1..<levels { b = try b.join(b) }
    // let a0 = d; let aK = (aK-1 select (id < 3K)) union aK-1; output aN select (id == 3)
    var a = d
    for k in 1...levels { a = try a.select(Attribute("id") *< .integer(Int64(3 * k))).union(a) }
    let shapes = [("self-join DAG", try b.select(Attribute("id") *== 3)),
                  ("select-union chain", try a.select(Attribute("id") *== 3))]

    var report = BenchmarkReport()
    for (shape, query) in shapes {
        for preset in HeuristicCatalog.presetNames {
            let engine = try QueryEngine(preset: preset)
            var counters = RunCounters()
            let m = try measure("\(shape), \(levels) levels, \(preset)", repetitions: 20, warmup: 2) {
                let run = try engine.run([query])
                counters = run.counters
                consume(run.results[0].count)
            }
            report.add(m, target: .milliseconds(100),
                       note: "copied \(counters.nodesCopied) of budget \(counters.growthBudget), source rows \(counters.sourceRowsRead)")
        }
    }

    // output documents select (id == k), k = 1...outputs, on memory and on SQLite.
    let db = try SQLiteDatabase.inMemory()
    let table = try db.createTable(
        "documents", scheme: Scheme(["id", "name", "parent_id"]), primaryKey: ["id"], indexes: [["parent_id"]])
    _ = try table.bulkLoad(rows, assumeUnique: true)
    let engine = try QueryEngine(preset: "all-on")
    for (backend, source) in [("memory", documents as any SourceRelation), ("sqlite", table as any SourceRelation)] {
        let relation = Relation(source: source)
        let many = try (1...outputs).map { try relation.select(Attribute("id") *== .integer(Int64($0 % 100 + 1))) }
        let before = db.statementsRun
        let m = try measure("\(outputs) outputs, \(backend)", repetitions: 5, warmup: 1) {
            consume(try engine.run(many).results.count)
        }
        let statements = (db.statementsRun - before) / 6
        report.add(m, note: backend == "sqlite" ? "\(statements) SQL statements per run" : "")
    }
    report.printTable(title: "growth (self-sharing DAGs, many outputs)")
}
