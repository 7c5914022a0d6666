// Resident memory of 1M documents in memory tables (issue 10), measured in a fresh child
// process so that nothing an earlier benchmark left in the heap is counted.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Relational
import Workloads

/// What one child run measured.
struct ResidentFigures {
    let rows: Int
    let bytesPerRow: Double
    let peakBytesPerRow: Double
    /// Wall-clock and CPU seconds of generate + load (CPU time is steadier on a busy machine).
    let loadSeconds: Double
    let loadCPUSeconds: Double
    /// CPU seconds of the generation alone, and of the load into memory tables alone.
    let generateCPUSeconds: Double
    let tablesCPUSeconds: Double
}

/// The child's side (`testbed-bench workloads --resident-child N`): reads resident memory,
/// generates N documents into memory tables (indexes on id and parent_id), drops the
/// dataset, reads resident memory again and prints
/// `rows bytes/row peak/row seconds cpu-seconds generate-cpu tables-cpu`.
func residentChild(rows: Int) throws {
    let before = residentBytes()
    let clock = ContinuousClock()
    let start = clock.now
    let cpuStart = processCPUSeconds()
    var tables: [String: MemoryTable] = [:]
    var cpuGenerated = 0.0
    do {  // the dataset goes at the end of this block; the tables share its columns
        let dataset = try Shape.documents.generate(rows: rows, seed: 42)
        cpuGenerated = processCPUSeconds()
        tables = try dataset.memoryTables()
    }
    let cpuEnd = processCPUSeconds()
    let elapsed = clock.now - start
    let after = residentBytes()
    let peak = peakResidentBytes()
    consume(tables["documents"]?.count ?? 0)
    let perRow = Double(after - before) / Double(rows)
    let peakPerRow = Double(peak - before) / Double(rows)
    print("\(rows) \(perRow) \(peakPerRow) \(elapsed.seconds) \(cpuEnd - cpuStart) \(cpuGenerated - cpuStart) \(cpuEnd - cpuGenerated)")
    tables.removeAll()
}

private func processCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

/// Runs the child (this same executable) and parses its line.
func measureResidentInChild(rows: Int) throws -> ResidentFigures {
    var path = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &path, path.count - 1)
    guard n > 0 else { throw BenchmarkError.usage("cannot find this executable through /proc/self/exe") }
    let executable = String(decoding: path[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let pipe = popen("'\(executable)' workloads --resident-child \(rows)", "r") else {
        throw BenchmarkError.usage("cannot start the resident-memory child")
    }
    var output = ""
    var buffer = [CChar](repeating: 0, count: 512)
    while fgets(&buffer, Int32(buffer.count), pipe) != nil {
        output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let status = pclose(pipe)
    let fields = output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
    guard status == 0, fields.count == 7 else {
        throw BenchmarkError.usage("resident-memory child failed (status \(status)): \(output)")
    }
    return ResidentFigures(
        rows: Int(fields[0]), bytesPerRow: fields[1], peakBytesPerRow: fields[2], loadSeconds: fields[3],
        loadCPUSeconds: fields[4], generateCPUSeconds: fields[5], tablesCPUSeconds: fields[6])
}

