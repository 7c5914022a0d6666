// Property-list storage (issue 17): saving and loading documents as a plist file relation
// and as a plist directory relation (one file per row), and a key lookup in the directory.
import PlistStore
import Relational
import Workloads

let plistSuite = BenchmarkSuite(
    name: "plist",
    summary: "property-list storage: save and load 100k documents as one plist file and as a directory of row files",
    run: runPlistBenchmarks
)

/// `--rows N` (default 100,000).
private func runPlistBenchmarks(_ arguments: [String]) throws {
    var rows = 100_000
    var i = 0
    while i < arguments.count {
        guard arguments[i] == "--rows", i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 else {
            throw BenchmarkError.usage("plist: unknown argument '\(arguments[i])' (known: --rows N)")
        }
        rows = n
        i += 2
    }
    let dataset = try Shape.documents.generate(rows: rows, seed: 42)
    guard let documents = dataset.table(named: "documents") else { throw BenchmarkError.usage("plist: no documents table") }
    let all = documents.rows
    let scratch = try TemporaryDirectory(prefix: "testbed-bench-plist")
    var report = BenchmarkReport()
    var run = 0

    for kind in [PlistRelationDeclaration.Kind.file, .directory] {
        let label = kind == .file ? "plist file" : "plist directory"
        var last = ""
        let save = try measure("\(label): save \(rows) documents", repetitions: 3, warmup: 0) {
            run += 1
            last = scratch.path + "/\(kind.rawValue)-\(run)" + (kind == .file ? ".plist" : "")
            let relation = try open(kind, last, create: true)
            try relation.insertRows(all)
            try relation.save()
        }
        report.add(save, note: kind == .file ? "encode + one atomic write" : "one file per row, through the journal")
        var opened = 0
        let load = try measure("\(label): open + read all \(rows)", repetitions: 3, warmup: 0) {
            let relation = try open(kind, last, create: false)
            consume(try relation.fetchAll().count)
            opened = relation.filesOpened
        }
        report.add(load, note: "\(opened) file(s) opened")
        if kind == .directory {
            let relation = try open(kind, last, create: false)
            let lookup = try measure("\(label): 1,000 key lookups", repetitions: 3, warmup: 1) {
                relation.resetStatistics()
                for id in stride(from: 1, through: min(rows, 1000 * max(1, rows / 1000)), by: max(1, rows / 1000)) {
                    consume(try relation.fetchAll(filter: Attribute("id") *== .integer(Int64(id))).count)
                }
            }
            report.add(lookup, note: "\(relation.filesOpened) files opened")
        }
    }
    report.printTable(title: "plist (\(rows) documents, binary plists)")
}

private func open(_ kind: PlistRelationDeclaration.Kind, _ path: String, create: Bool) throws -> any PlistRelation {
    let scheme = try Scheme(["id", "name", "parent_id"])
    switch kind {
    case .file: return try PlistFileRelation(path: path, name: "documents", scheme: scheme, primaryKey: ["id"], create: create)
    case .directory: return try PlistDirectoryRelation(path: path, name: "documents", scheme: scheme, primaryKey: ["id"], create: create)
    }
}
