// Closure benchmarks (issue 14): the selected document's ancestors and a 1,000-document
// subtree's descendants in generated documents (default parameters: depth at most 20),
// by transitive closure with closure-seeding on (all-on) and off, next to SQLite's
// WITH RECURSIVE after ANALYZE, in the same run.
import QueryEngine
import Relational
import SQLiteStore
import Workloads

let closureSuite = BenchmarkSuite(
    name: "closure",
    summary: "ancestors and descendants by closure: closure-seeding on vs off vs SQLite WITH RECURSIVE (after ANALYZE)",
    run: runClosureBenchmarks
)

/// `--quick` uses 100k documents instead of 1M; `--seeded-only` skips the runs that compute
/// the whole closure (closure-seeding off, translated SQL), minutes at 1M.
private func runClosureBenchmarks(_ arguments: [String]) throws {
    var n = 1_000_000
    var whole = true
    for argument in arguments {
        switch argument {
        case "--quick": n = 100_000
        case "--seeded-only": whole = false
        default: throw BenchmarkError.usage("closure: unknown argument '\(argument)' (known: --quick, --seeded-only)")
        }
    }
    let dataset = try Shape.documents.generate(rows: n, seed: 42)
    guard let table = dataset.table(named: "documents") else { throw BenchmarkError.usage("closure: no documents table") }
    let documents = try MemoryTable(name: "documents", scheme: table.scheme, indexedAttributes: ["id", "parent_id"])
    documents.reserveCapacity(table.rows.count)
    try documents.add(contentsOf: table.rows)
    let (deepest, depth, subtreeTop, subtreeSize) = try landmarks(table)
    print("\(n) documents; ancestors of document \(deepest) (depth \(depth)); descendants of document \(subtreeTop) (subtree of \(subtreeSize) including itself)")

    let catalog = HeuristicCatalog.standard
    let allOn = QueryEngine(flags: try catalog.preset("all-on"))
    let noSeeding = QueryEngine(flags: try catalog.flagSet(preset: "all-on", disable: ["closure-seeding"]))
    var report = BenchmarkReport()

    let ancestors = try ancestorsQuery(Relation(source: documents), selected: deepest)
    var counters = RunCounters()
    let fast = try measure("ancestors, all-on", repetitions: 2_000, warmup: 200) {
        let run = try allOn.run([ancestors])
        counters = run.counters
        consume(run.results[0].count)
    }
    report.add(fast, target: .microseconds(100),
               note: "source rows \(counters.sourceRowsRead) (target <= 30); rows per round \(counters.onDemandRoundRows)")
    if whole {
        let slow = try measure("ancestors, closure-seeding off", repetitions: 3, warmup: 0) {
            let run = try noSeeding.run([ancestors])
            counters = run.counters
            consume(run.results[0].count)
        }
        report.add(slow, note: "source rows \(counters.sourceRowsRead); \(Int(slow.median.seconds / fast.median.seconds))x all-on (target >= 1000x)")
    }

    // The ids alone, and with each document's row: joining 1,000 ids with documents needs a
    // join filter above the default threshold of 100 keys, else documents is scanned.
    let docs = Relation(source: documents)
    let wideJoinFilter = QueryEngine(flags: try catalog.flagSet(preset: "all-on", set: ["join-filter-threshold": "10000"]))
    for (label, engine, query) in [
        ("descendant ids, all-on", allOn, try descendantsQuery(docs, top: subtreeTop, withRows: false)),
        ("descendants with rows, all-on", allOn, try descendantsQuery(docs, top: subtreeTop, withRows: true)),
        ("descendants with rows, join-filter-threshold=10000", wideJoinFilter, try descendantsQuery(docs, top: subtreeTop, withRows: true)),
    ] {
        let m = try measure("\(label) (subtree of \(subtreeSize))", repetitions: 100, warmup: 5) {
            let run = try engine.run([query])
            counters = run.counters
            consume(run.results[0].count)
        }
        report.add(m, note: "source rows \(counters.sourceRowsRead) (target <= \(2 * subtreeSize)); rows per round \(counters.onDemandRoundRows)")
    }

    try addSQLiteClosureBaselines(table.rows, deepest: deepest, top: subtreeTop, fast: fast.median, whole: whole, to: &report)
    report.printTable(title: "closure (\(n) documents)")
}

/// The last document (parents-first ids: one of the deepest), its depth, and the document
/// whose subtree size is nearest 1,000.
private func landmarks(_ table: DatasetTable) throws -> (Int64, Int, Int64, Int) {
    let idAt = table.scheme.index(of: "id") ?? 0, parentAt = table.scheme.index(of: "parent_id") ?? 2
    var parent = [Int64: Int64]()
    var ids: [Int64] = []
    for row in table.rows {
        guard case let .integer(id) = row.values[idAt] else { continue }
        ids.append(id)
        if case let .integer(p) = row.values[parentAt] { parent[id] = p }
    }
    ids.sort()
    guard let deepest = ids.last else { throw BenchmarkError.usage("closure: no documents") }
    var depth = 0
    var current = deepest
    while let p = parent[current] { current = p; depth += 1 }
    // Children have larger ids than their parents: accumulate sizes from the last id down.
    var size = [Int64: Int]()
    for id in ids.reversed() {
        size[id, default: 0] += 1
        if let p = parent[id] { size[p, default: 0] += size[id] ?? 1 }
    }
    let top = ids.min { abs((size[$0] ?? 0) - 1_000) < abs((size[$1] ?? 0) - 1_000) } ?? deepest
    return (deepest, depth, top, size[top] ?? 0)
}

/// selected-document-ancestors with the selection as a one-row table.
private func ancestorsQuery(_ docs: Relation, selected: Int64) throws -> Relation {
    let selection = Relation(source: try MemoryTable(name: "selected_documents", columns: ["id"], rows: [[.integer(selected)]]))
    let up = try docs.project(["id", "parent_id"]).closure("id", "parent_id")
    return try selection.join(up).project(["parent_id"]).rename(["parent_id": "id"]).join(docs)
}

/// selected-document-descendants with the top of the subtree as the selection (the ids
/// only, or joined with their documents as in the catalog query).
private func descendantsQuery(_ docs: Relation, top: Int64, withRows: Bool) throws -> Relation {
    let selection = Relation(source: try MemoryTable(name: "top", columns: ["parent_id"], rows: [[.integer(top)]]))
    let down = try docs.project(["id", "parent_id"]).closure("id", "parent_id")
    let ids = try selection.join(down).project(["id"])
    return withRows ? try ids.join(docs) : ids
}

/// The same queries translated to SQL (WITH RECURSIVE over the whole closure, then the
/// join), and the ancestors written by hand with the seed inside the recursion, which is
/// how one would write it for SQLite; both after ANALYZE.
private func addSQLiteClosureBaselines(
    _ rows: [Row], deepest: Int64, top: Int64, fast: Duration, whole: Bool, to report: inout BenchmarkReport
) throws {
    let db = try SQLiteDatabase.inMemory()
    let documents = try db.createTable(
        "documents", scheme: Scheme(["id", "name", "parent_id"]), primaryKey: ["id"], indexes: [["parent_id"]])
    _ = try documents.bulkLoad(rows, assumeUnique: true)
    try db.analyze()
    let docs = Relation(source: documents)
    if whole {
        let translated = try SQLTranslator.translate(try ancestorsQuery(docs, selected: deepest))
        let m = try measure("ancestors, sqlite-analyzed (translated WITH RECURSIVE)", repetitions: 3, warmup: 0) {
            consume(try db.run(translated).count)
        }
        report.add(m, note: "\(fmt(m.median.seconds / fast.seconds))x all-on")
    }
    let seeded = """
        WITH RECURSIVE up(id) AS (SELECT parent_id FROM documents WHERE id = ? \
        UNION SELECT d.parent_id FROM documents AS d JOIN up ON d.id = up.id) \
        SELECT d.id, d.name, d.parent_id FROM up JOIN documents AS d ON d.id = up.id
        """
    let hand = try measure("ancestors, sqlite-analyzed (hand-seeded WITH RECURSIVE)", repetitions: 2_000, warmup: 200) {
        consume(try db.query(seeded, [.integer(deepest)]).count)
    }
    report.add(hand, note: "\(fmt(hand.median.seconds / fast.seconds))x all-on")
    let subtreeSQL = """
        WITH RECURSIVE down(id) AS (SELECT id FROM documents WHERE parent_id = ? \
        UNION SELECT d.id FROM documents AS d JOIN down ON d.parent_id = down.id) \
        SELECT d.id, d.name, d.parent_id FROM down JOIN documents AS d ON d.id = down.id
        """
    let subtree = try measure("descendants, sqlite-analyzed (hand-seeded WITH RECURSIVE)", repetitions: 200, warmup: 20) {
        consume(try db.query(subtreeSQL, [.integer(top)]).count)
    }
    report.add(subtree)
}

private func fmt(_ x: Double) -> String {
    String((x * 100).rounded() / 100)
}
