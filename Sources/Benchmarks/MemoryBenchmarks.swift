// Resident memory of documents in memory tables (issue 10's memory target), measured in a
// fresh process so nothing else the run allocated is counted: `testbed-bench bulk-memory`
// prints one JSON line; the bulk suite starts it as a child and reads that line.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Engines
import Workloads

let memorySuite = BenchmarkSuite(
    name: "bulk-memory",
    summary: "N documents into memory tables (indexes id, parent_id) in this fresh process: resident bytes per row, generate + load time",
    run: runMemoryBenchmark,
    includedInAll: false
)

/// `--rows N` (default 1,000,000), `--seed S` (default 42).
private func runMemoryBenchmark(_ arguments: [String]) throws {
    var rows = 1_000_000
    var seed: UInt64 = 42
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--rows":
            guard let value = rest.popFirst(), let n = Int(value), Shape.rowRange.contains(n) else {
                throw BenchmarkError.usage("bulk-memory: --rows needs a count in \(Shape.rowRange)")
            }
            rows = n
        case "--seed":
            guard let value = rest.popFirst(), let s = UInt64(value) else {
                throw BenchmarkError.usage("bulk-memory: --seed needs a non-negative integer")
            }
            seed = s
        default:
            throw BenchmarkError.usage("bulk-memory: unknown argument '\(argument)' (known: --rows N, --seed S)")
        }
    }
    let result = try measureDocumentsMemory(rows: rows, seed: seed)
    print(result.json.text)
}

struct MemoryFigures {
    let rows: Int
    let generate: Duration
    let load: Duration
    /// Process CPU time (user + system) of generating and loading: on a shared machine the
    /// wall time includes waiting for a core, this does not.
    let cpu: Duration
    /// Resident bytes before generating and after loading (the generated rows released).
    let residentBefore: Int
    let residentAfter: Int
    let peakResident: Int

    var bytesPerRow: Double { Double(residentAfter - residentBefore) / Double(rows) }

    var json: JSON {
        .object([
            "rows": .integer(Int64(rows)),
            "generate_ns": .integer(Int64(generate.seconds * 1e9)),
            "load_ns": .integer(Int64(load.seconds * 1e9)),
            "cpu_ns": .integer(Int64(cpu.seconds * 1e9)),
            "resident_before": .integer(Int64(residentBefore)),
            "resident_after": .integer(Int64(residentAfter)),
            "peak_resident": .integer(Int64(peakResident)),
        ])
    }

    init(json: JSON) throws {
        guard let rows = json["rows"]?.int, let generate = json["generate_ns"]?.int, let load = json["load_ns"]?.int,
              let cpu = json["cpu_ns"]?.int,
              let before = json["resident_before"]?.int, let after = json["resident_after"]?.int,
              let peak = json["peak_resident"]?.int, rows > 0
        else { throw BulkFailure(description: "bulk-memory printed an unexpected line: \(json.text)") }
        self.init(rows: rows, generate: .nanoseconds(generate), load: .nanoseconds(load), cpu: .nanoseconds(cpu),
                  residentBefore: before, residentAfter: after, peakResident: peak)
    }

    init(rows: Int, generate: Duration, load: Duration, cpu: Duration, residentBefore: Int, residentAfter: Int, peakResident: Int) {
        self.rows = rows
        self.generate = generate
        self.load = load
        self.cpu = cpu
        self.residentBefore = residentBefore
        self.residentAfter = residentAfter
        self.peakResident = peakResident
    }
}

/// Generates `rows` documents, loads them into memory tables indexed on id and parent_id,
/// drops the generated rows (the tables keep what they need), returns freed heap pages to
/// the system, and reads the resident set size before and after.
func measureDocumentsMemory(rows: Int, seed: UInt64) throws -> MemoryFigures {
    trimHeap()
    let before = residentBytes()
    let clock = ContinuousClock()
    var tables: [String: Any] = [:]
    var generate = Duration.zero, load = Duration.zero, cpu = Duration.zero
    do {
        let cpuStart = processCPUTime()
        let start = clock.now
        let dataset = try Shape.documents.generate(rows: rows, seed: seed)
        let generated = clock.now
        let memory = try dataset.memoryTables()
        load = clock.now - generated
        generate = generated - start
        cpu = processCPUTime() - cpuStart
        for (name, table) in memory { tables[name] = table }
    }
    trimHeap()
    let after = residentBytes()
    consume(tables.count)
    return MemoryFigures(rows: rows, generate: generate, load: load, cpu: cpu,
                         residentBefore: before, residentAfter: after, peakResident: peakResidentBytes())
}

/// User plus system CPU time of this process so far.
func processCPUTime() -> Duration {
    var t = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0 else { return .zero }
    return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
}

/// Resident set size from /proc/self/statm (0 where there is no /proc).
func residentBytes() -> Int {
    guard let text = readSmallFile("/proc/self/statm") else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// VmHWM, the peak resident set size, from /proc/self/status (0 where there is no /proc).
func peakResidentBytes() -> Int {
    guard let text = readSmallFile("/proc/self/status") else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.filter { $0.isNumber }
        return (Int(String(digits)) ?? 0) * 1024
    }
    return 0
}

/// glibc's `malloc_trim(0)` (not in the Glibc module, so looked up; RTLD_DEFAULT is null).
private func trimHeap() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
}

private func readSmallFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        bytes.append(contentsOf: buffer[..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}
