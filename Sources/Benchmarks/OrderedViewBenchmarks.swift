// Ordered-view benchmarks (issue 12): the documents table kept sorted by name, changed one
// row at a time (a rename, which moves the row; an insertion; a deletion), maintained
// incrementally against regenerating, sorting and diffing the whole array.
import Relational
import Workloads

let orderedViewSuite = BenchmarkSuite(
    name: "ordered",
    summary: "ordered view of documents by name: single-row changes, incremental vs regenerate-sort-diff",
    run: runOrderedViewBenchmarks
)

/// `--rows N` (default 100000).
private func runOrderedViewBenchmarks(_ arguments: [String]) throws {
    var n = 100_000
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        guard argument == "--rows", let value = rest.popFirst(), let rows = Int(value), rows > 0 else {
            throw BenchmarkError.usage("ordered: unknown or incomplete argument '\(argument)' (known: --rows N)")
        }
        n = rows
    }
    let dataset = try Shape.documents.generate(rows: n, seed: 42)
    guard let table = dataset.table(named: "documents") else { throw BenchmarkError.usage("ordered: no documents table") }
    var byID: [Row] = table.rows
    var view = try OrderedView(scheme: table.scheme, orderedBy: ["name"], rows: byID)
    var generator = SplitMix(state: 7)
    var report = BenchmarkReport()
    print("ordered view of \(n) documents by name")

    var renames = 0
    let rename = try measure("rename one document (a move), incremental", repetitions: 5_000, warmup: 200) {
        let i = Int(generator.next() % UInt64(byID.count))
        let old = byID[i]
        renames += 1
        let new = Row([old.values[0], .text("Renamed \(renames)"), old.values[2]])
        byID[i] = new
        let change = try view.apply(RowChange(added: [new], removed: [old]))
        consume(change.moves.count)
    }
    report.add(rename, target: .microseconds(20))

    var nextID: Int64 = 10_000_000
    let insert = try measure("insert one document, incremental", repetitions: 5_000, warmup: 200) {
        nextID += 1
        let row = Row([.integer(nextID), .text("Inserted \(nextID)"), .integer(1)])
        consume(try view.apply(RowChange(added: [row])).insertions.count)
        byID.append(row)
    }
    report.add(insert, target: .microseconds(20))
    let delete = try measure("delete one document, incremental", repetitions: 5_000, warmup: 200) {
        guard let row = byID.popLast() else { return }
        consume(try view.apply(RowChange(removed: [row])).removals.count)
    }
    report.add(delete, target: .microseconds(20))

    // The comparison: the new contents regenerated as a set, sorted and diffed each time.
    var contents = Set(byID)
    var array = view.rows
    let regenerate = measure("rename one document, regenerate + sort + diff", repetitions: 10, warmup: 1) {
        let i = Int(generator.next() % UInt64(byID.count))
        let old = byID[i]
        renames += 1
        let new = Row([old.values[0], .text("Renamed \(renames)"), old.values[2]])
        byID[i] = new
        contents.remove(old)
        contents.insert(new)
        let (rows, change) = RegenerateAndDiff.diff(old: array, newContents: contents, ordering: view.ordering)
        array = rows
        consume(change.moves.count)
    }
    let speedup = regenerate.median.seconds / rename.median.seconds
    report.add(regenerate, note: "\(Int(speedup))x the incremental rename (target >= 100x)")
    if speedup < 100 { report.noteMissed("incremental at least 100x faster than regenerate + sort + diff") }
    report.printTable(title: "ordered view (\(n) documents by name)")
    if !report.missedTargets.isEmpty {
        print("missed targets: " + report.missedTargets.joined(separator: "; "))
    }
}

/// SplitMix64: the same document sequence on every run.
private struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
