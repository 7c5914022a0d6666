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
    summary: "documents generator: 100k and 1M rows into memory tables (time, resident bytes/row), 100k rows into an SQLite file",
    run: runWorkloadsBenchmarks
)

/// `--quick` divides every size by 10 (a smoke run; the targets apply to the full sizes).
private func runWorkloadsBenchmarks(_ arguments: [String]) throws {
    if arguments.first == "--resident-child" {
        guard arguments.count == 2, let rows = Int(arguments[1]), rows > 0 else {
            throw BenchmarkError.usage("workloads: --resident-child needs a positive row count")
        }
        return try residentChild(rows: rows)
    }
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
    report.add(memoryLarge, target: scale == 1 ? .milliseconds(500) : nil)

    // Resident memory per row of the loaded tables, in a fresh process (issue 10: at most
    // 100 bytes a row at 1M documents). Not a timing, so printed beside the table.
    let resident = try measureResidentInChild(rows: large)
    let residentVerdict = scale == 1 ? (resident.bytesPerRow <= 100 ? "target <= 100" : "MISSED target <= 100") : ""

    let hash = try Shape.documents.generate(rows: small, seed: 42)
    let hashing = measure("content hash of \(small) documents", repetitions: 5, warmup: 1) {
        consume(Int(truncatingIfNeeded: hash.contentHash))
    }
    report.add(hashing)

    report.printTable(title: "workloads")
    print("resident memory, documents \(resident.rows) -> memory tables (fresh process): "
        + "\(Int(resident.bytesPerRow.rounded())) bytes/row after the load (\(residentVerdict)), "
        + "peak \(Int(resident.peakBytesPerRow.rounded())) bytes/row; generate + load \(Duration.seconds(resident.loadSeconds).formatted) wall, "
        + "\(Duration.seconds(resident.loadCPUSeconds).formatted) CPU (generate \(Duration.seconds(resident.generateCPUSeconds).formatted), "
        + "load \(Duration.seconds(resident.tablesCPUSeconds).formatted))")
    if scale == 1 && resident.bytesPerRow > 100 { report.noteMissed("resident bytes/row") }
    if !report.missedTargets.isEmpty {
        printError("missed targets: " + report.missedTargets.joined(separator: ", "))
    }
}
