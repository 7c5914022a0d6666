// Workloads benchmarks (issue 4): generating document hierarchies into memory tables and
// into an SQLite file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Workloads

let workloadsSuite = BenchmarkSuite(
    name: "workloads",
    summary: "documents generator: 100k and 1M rows into memory tables, 100k rows into an SQLite file",
    run: runWorkloadsBenchmarks
)

/// `--quick` divides every size by 10 (a smoke run; the targets apply to the full sizes).
private func runWorkloadsBenchmarks(_ arguments: [String]) throws {
    var scale = 1
    for argument in arguments {
        switch argument {
        case "--quick": scale = 10
        default: throw BenchmarkError.usage("workloads: unknown argument '\(argument)' (known: --quick)")
        }
    }
    var report = BenchmarkReport()
    let small = 100_000 / scale
    let large = 1_000_000 / scale

    // Generation + memory tables with indexes on id and parent_id, end to end.
    let memorySmall = try measure("documents \(small) -> memory tables", repetitions: 5, warmup: 1) {
        let dataset = try Shape.documents.generate(rows: small, seed: 42)
        consume(try dataset.memoryTables().count)
    }
    report.add(memorySmall, target: scale == 1 ? .milliseconds(300) : nil, note: "generate + load, indexes id, parent_id")

    let generateOnly = try measure("documents \(small) generate only", repetitions: 5, warmup: 1) {
        consume(try Shape.documents.generate(rows: small, seed: 42).tables.count)
    }
    report.add(generateOnly)

    let path = "/tmp/testbed-bench-documents-\(getpid()).sqlite"
    let sqlite = try measure("documents \(small) -> SQLite file", repetitions: 3, warmup: 1) {
        let dataset = try Shape.documents.generate(rows: small, seed: 42)
        try dataset.writeSQLite(to: path, replace: true)
    }
    unlink(path)
    report.add(sqlite, target: scale == 1 ? .seconds(1) : nil, note: "one transaction, indexes after the load")

    let memoryLarge = try measure("documents \(large) -> memory tables", repetitions: 3, warmup: 0) {
        let dataset = try Shape.documents.generate(rows: large, seed: 42)
        consume(try dataset.memoryTables().count)
    }
    report.add(memoryLarge, target: scale == 1 ? .seconds(3) : nil)

    let hash = try Shape.documents.generate(rows: small, seed: 42)
    let hashing = measure("content hash of \(small) documents", repetitions: 5, warmup: 1) {
        consume(Int(truncatingIfNeeded: hash.contentHash))
    }
    report.add(hashing)

    report.printTable(title: "workloads")
    if !report.missedTargets.isEmpty {
        printError("missed targets: " + report.missedTargets.joined(separator: ", "))
    }
}
