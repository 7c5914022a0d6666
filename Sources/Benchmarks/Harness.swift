// The benchmark harness: suites, timing with a monotonic clock, and an aligned report.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A named group of benchmarks, run as `testbed-bench <name> [arguments]`. Each suite file
/// defines one global `let xxxSuite = BenchmarkSuite(...)`, listed in main.swift's `suites`.
struct BenchmarkSuite: Sendable {
    let name: String
    let summary: String
    let run: @Sendable ([String]) throws -> Void
    /// False for suites `all` skips (long runs with their own entry script, or drivers).
    var includedInAll = true
}

/// Timings of one benchmark: each repetition timed separately, warm-up runs discarded.
struct Measurement {
    let label: String
    let repetitions: Int
    let median: Duration
    let min: Duration
    let max: Duration

    /// Builds a measurement from per-repetition samples (at least one).
    init(label: String, samples: [Duration]) {
        let sorted = samples.sorted()
        self.label = label
        self.repetitions = sorted.count
        self.min = sorted.first ?? .zero
        self.max = sorted.last ?? .zero
        if sorted.isEmpty {
            median = .zero
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }
}

/// Runs `body` `warmup` times untimed, then `repetitions` times timed one by one on the
/// monotonic `ContinuousClock`; returns median, min and max.
func measure(
    _ label: String, repetitions: Int, warmup: Int, _ body: () throws -> Void
) rethrows -> Measurement {
    let clock = ContinuousClock()
    for _ in 0..<Swift.max(0, warmup) { try body() }
    var samples: [Duration] = []
    samples.reserveCapacity(Swift.max(1, repetitions))
    for _ in 0..<Swift.max(1, repetitions) {
        let start = clock.now
        try body()
        samples.append(clock.now - start)
    }
    return Measurement(label: label, samples: samples)
}

/// Keeps results alive so the optimizer cannot delete the work that produced them.
nonisolated(unsafe) var benchmarkSink = 0

@inline(never)
func consume(_ value: Int) { benchmarkSink &+= value }

extension Duration {
    /// Seconds as a Double (attoseconds included).
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// A short human reading in the best unit: `812 ns`, `3.41 µs`, `12.7 ms`, `1.93 s`.
    var formatted: String {
        let s = seconds
        if s < 1e-6 { return format(s * 1e9, "ns") }
        if s < 1e-3 { return format(s * 1e6, "µs") }
        if s < 1 { return format(s * 1e3, "ms") }
        return format(s, "s")
    }
}

private func format(_ value: Double, _ unit: String) -> String {
    let digits = value >= 100 ? 0 : (value >= 10 ? 1 : 2)
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
    if let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) - 1 < digits {
        text += String(repeating: "0", count: digits - (text.distance(from: dot, to: text.endIndex) - 1))
    }
    return text + " " + unit
}

/// Collects measurements with optional targets and prints them as an aligned table.
struct BenchmarkReport {
    private var rows: [(Measurement, target: Duration?, note: String)] = []

    private var otherMisses: [String] = []

    var missedTargets: [String] {
        rows.compactMap { m, target, _ in
            guard let target, m.median >= target else { return nil }
            return m.label
        } + otherMisses
    }

    /// Records a missed target that is not a timing (e.g. memory per row).
    mutating func noteMissed(_ label: String) { otherMisses.append(label) }

    mutating func add(_ m: Measurement, target: Duration? = nil, note: String = "") {
        rows.append((m, target, note))
    }

    func printTable(title: String) {
        let header = ["benchmark", "reps", "median", "min", "max", "target", "note"]
        var lines = [header]
        for (m, target, note) in rows {
            let verdict = target.map { (m.median < $0 ? "< " : "MISSED < ") + $0.formatted } ?? ""
            lines.append([m.label, String(m.repetitions), m.median.formatted, m.min.formatted, m.max.formatted, verdict, note])
        }
        var widths = Array(repeating: 0, count: header.count)
        for line in lines {
            for (i, cell) in line.enumerated() { widths[i] = Swift.max(widths[i], cell.count) }
        }
        print("== \(title)")
        for (n, line) in lines.enumerated() {
            var out = ""
            for (i, cell) in line.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                // Numbers right-aligned, text left-aligned.
                out += (1...4).contains(i) ? pad + cell : cell + pad
                if i < line.count - 1 { out += "  " }
            }
            while out.last == " " { out.removeLast() }
            print(out)
            if n == 0 { print(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))) }
        }
        print("")
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    fflush(nil)  // every C stream, so a table printed before lands before the message on a shared terminal
    var line = message + "\n"
    line.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}
