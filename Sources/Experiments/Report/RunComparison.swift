import FileSupport
import Foundation
import QueryEngine

/// `testbed compare RUN_A RUN_B [--tolerance T]`: regressions between two runs of one
/// config (say a committed reference and a fresh run on a new commit). Cells are matched by
/// query, size, backend, engine and flag set (with the same canonical flags). For each, the
/// ratio median(B) / median(A) gets a bootstrap confidence interval; a cell moved when the
/// interval excludes 1, and regressed when the whole interval lies above 1 + T. Counter
/// changes are listed apart as exact differences: they are deterministic. Exit 1 when a
/// cell regressed or a result changed, else 0.
public struct RunComparison {
    public var runA: String
    public var runB: String
    public var tolerance: Double
    public var catalogDirectory: String?

    public static let defaultTolerance = 0.10

    public init(runA: String, runB: String, tolerance: Double = defaultTolerance) {
        self.runA = runA
        self.runB = runB
        self.tolerance = tolerance
    }

    public func execute(console: Console) -> Int32 {
        do {
            let result = try compare()
            console.out(result.text)
            if let note = result.note { console.err("testbed: \(note)\n") }
            return result.failed ? 1 : 0
        } catch {
            return ExitStatus.code(for: error, console: console)
        }
    }

    /// What `compare` found, as text, and whether it fails (a regression or a changed result).
    public struct Result {
        public let text: String
        public let regressions: [String]
        public let counterChanges: [String]
        public let resultChanges: [String]
        public let note: String?
        /// Result groups whose cells disagree within run A or B.
        public var disagreements: [String] = []
        public var failed: Bool { !regressions.isEmpty || !resultChanges.isEmpty || !disagreements.isEmpty }
    }

    struct Run {
        let directory: String
        let experiment: Experiment
        let records: [Cell: [TimingRecord]]
        let commit: String
    }

    func load(_ directory: String, option: String) throws -> Run {
        guard FileSystem.isDirectory(directory) else {
            throw ExperimentFailure.usage("\(option): \(Printable.quoted(directory)) is not a run directory")
        }
        let config = FileSystem.join(directory, "config.yaml")
        let timings = FileSystem.join(directory, TimingsFile.name)
        for file in [config, timings] where !FileSystem.exists(file) {
            throw ExperimentFailure.usage("\(option): \(Printable.quoted(directory)) has no \((file as NSString).lastPathComponent); give a run's output directory")
        }
        let experiment = try ExperimentResolver.resolve(text: try FileSystem.readText(config), file: config, catalogDirectory: catalogDirectory)
        let records = Dictionary(grouping: try TimingsFile.read(timings, experiment: experiment), by: \.cell)
        try PassesFile.checkRunFiles(in: directory, experiment: experiment)
        let environment = (try? FileSystem.readText(FileSystem.join(directory, Environment.fileName))) ?? ""
        let commit = environment.split(separator: "\n").first { $0.hasPrefix("git commit:") }
            .map { String($0.dropFirst("git commit:".count)).trimmingCharacters(in: .whitespaces) } ?? "unknown"
        return Run(directory: directory, experiment: experiment, records: records, commit: commit)
    }

    public func compare() throws -> Result {
        guard tolerance.isFinite, tolerance >= 0, tolerance < 1000 else {
            throw ExperimentFailure.usage("--tolerance: '\(tolerance)' is not valid; expected a fraction from 0 to below 1000, e.g. 0.1 for 10%")
        }
        let a = try load(runA, option: "RUN_A"), b = try load(runB, option: "RUN_B")
        guard a.experiment.name == b.experiment.name else {
            throw ExperimentFailure.usage("\(Printable.quoted(runA)) is a run of '\(a.experiment.name)', \(Printable.quoted(runB)) of "
                + "'\(b.experiment.name)'; compare two runs of one config")
        }
        // Cells over other data hold other results; paired, they read as changed results.
        func dataset(_ e: Experiment) -> String {
            "\(e.shape) seed \(e.seed)" + (e.parameters.values.isEmpty ? "" : " params \(e.parameters)")
        }
        guard dataset(a.experiment) == dataset(b.experiment) else {
            throw ExperimentFailure.usage("\(Printable.quoted(runA)) ran on \(dataset(a.experiment)), \(Printable.quoted(runB)) on "
                + "\(dataset(b.experiment)); their results are of different data: compare two runs over one dataset")
        }
        let multipleBackends = a.experiment.backends.count > 1 || b.experiment.backends.count > 1
        func name(_ c: Cell) -> String { "\(c.query) \(c.rows) \(SummaryTable.label(c, multipleBackends: multipleBackends))" }

        var matched: [Cell] = []
        var onlyA: [Cell] = [], onlyB: [Cell] = [], flagsDiffer: [Cell] = []
        for cell in a.experiment.cells where a.records[cell] != nil {
            guard let other = b.records[cell] else { onlyA.append(cell); continue }
            if a.records[cell]?.first?.flags != other.first?.flags { flagsDiffer.append(cell); continue }
            matched.append(cell)
        }
        for cell in b.experiment.cells where b.records[cell] != nil && a.records[cell] == nil { onlyB.append(cell) }
        guard !matched.isEmpty else {
            throw ExperimentFailure.usage("\(Printable.quoted(runA)) and \(Printable.quoted(runB)) have no cell in common")
        }

        func totals(_ run: Run, _ cell: Cell) -> [Double] { (run.records[cell] ?? []).map(\.totalMicroseconds) }
        var note: String?
        var intervals: [String: Interval] = [:]
        var method = "min–max ranges (no confidence intervals)"
        do {
            let answer = try BootstrapIntervals.compute(medians: [], ratios: matched.map {
                .init(id: "\($0)", numerator: totals(b, $0), denominator: totals(a, $0))
            })
            intervals = answer.intervals
            method = "\(Int(BootstrapIntervals.confidence * 100))% bootstrap intervals (\(answer.method); \(answer.library))"
        } catch {
            note = "confidence intervals unavailable (\(error)); cells are judged by whether their min–max ranges overlap"
        }

        var moved: [[String]] = [["cell", "A median ms", "B median ms", "ratio B/A", "interval", "verdict"]]
        var unclear: [[String]] = [["cell", "ratio B/A", "interval", "repetitions A/B", "repetitions that would tell"]]
        var regressions: [String] = []
        var unchanged = 0
        for cell in matched {
            guard let sa = Spread(totals(a, cell)), let sb = Spread(totals(b, cell)) else { continue }
            guard sa.median > 0 else { unchanged += 1; continue }
            let ratio = sb.median / sa.median
            let interval = intervals["\(cell)"]
            let low = interval?.low ?? (sb.minimum > sa.maximum ? sb.minimum / sa.maximum : (sb.maximum < sa.minimum ? 0 : 1))
            let high = interval?.high ?? (sb.maximum < sa.minimum ? sb.maximum / sa.minimum : (sb.minimum > sa.maximum ? .infinity : 1))
            let shown = interval.map { String(format: "%.3g–%.3g", $0.low, $0.high) } ?? (sa.separated(from: sb) ? "ranges apart" : "ranges overlap")
            if low > 1 || high < 1 {
                let slower = low > 1
                let verdict = slower ? (low > 1 + tolerance ? "REGRESSION (slower beyond tolerance)" : "slower, within tolerance") : "faster"
                if slower && low > 1 + tolerance { regressions.append(name(cell)) }
                moved.append([name(cell), SummaryTable.milliseconds(sa.median), SummaryTable.milliseconds(sb.median),
                              String(format: "%.3gx", ratio), shown, verdict])
            } else if abs(ratio - 1) > tolerance, let interval {
                let n = min(a.records[cell]?.count ?? 0, b.records[cell]?.count ?? 0)
                let needed = BootstrapIntervals.repetitionsNeeded(ratio: ratio, interval: interval, repetitions: n)
                unclear.append([name(cell), String(format: "%.3gx", ratio), shown,
                                "\(a.records[cell]?.count ?? 0)/\(b.records[cell]?.count ?? 0)",
                                needed.map { "about \($0)" } ?? "-"])
            } else {
                unchanged += 1
            }
        }

        let exact = exactChanges(matched, a, b, name: name)
        let (counters, counterChanges, results, resultChanges) = (exact.counters, exact.counterChanges, exact.results, exact.resultChanges)

        var text = "A: \(a.directory) (commit \(a.commit))\nB: \(b.directory) (commit \(b.commit))\n"
        if a.experiment.configText != b.experiment.configText {
            text += "note: the two runs' config.yaml differ; cells are matched by query, size, engine and flag set\n"
        }
        text += "\(matched.count) cells compared with \(method); tolerance \(String(format: "%g", tolerance * 100))%\n"
        text += "\nTimes: cells whose median moved beyond its interval (ratio B/A; above 1 is slower)\n"
        text += moved.count > 1 ? SummaryTable.align(moved, rightAligned: [1, 2, 3, 4]) : "  none\n"
        if unclear.count > 1 {
            text += "\nCannot tell (ratio beyond the tolerance, but the interval includes 1)\n" + SummaryTable.align(unclear, rightAligned: [1, 2, 3, 4])
        }
        text += "\(unchanged) cells unchanged (interval includes 1, ratio within the tolerance)\n"
        text += "\nCounters (deterministic; exact differences)\n"
        text += counters.count > 1 ? SummaryTable.align(counters, rightAligned: [2, 3, 4]) : "  no counter changed\n"
        if results.count > 1 { text += "\nResults changed (row count and hash)\n" + SummaryTable.align(results) }
        let disagreements = disagreements(a, label: "A") + disagreements(b, label: "B")
        if !disagreements.isEmpty {
            text += "\nResults that disagree within a run (its own equality check fails; times across these cells are not comparable)\n"
                + disagreements.map { "  \($0)\n" }.joined()
        }
        for (label, cells) in [("only in A", onlyA), ("only in B", onlyB), ("flags differ (not compared)", flagsDiffer)] where !cells.isEmpty {
            text += "\n\(cells.count) cells \(label): " + cells.prefix(5).map(name).joined(separator: "; ") + (cells.count > 5 ? "; …" : "") + "\n"
        }
        let counts = "\(regressions.count) cell(s) slower beyond the tolerance, \(resultChanges.count) result(s) changed\n"
        let verdict = !disagreements.isEmpty ? "results disagree within a run; " + counts
            : regressions.isEmpty && resultChanges.isEmpty
            ? "no regression" + (counterChanges.isEmpty ? "" : " in time; \(counterChanges.count) counter changes") + "\n"
            : counts
        text += "\nverdict: " + verdict
        return Result(text: text, regressions: regressions, counterChanges: counterChanges, resultChanges: resultChanges, note: note,
                      disagreements: disagreements)
    }
}
