import FileSupport
import Foundation
import QueryEngine

/// One row of `summary.csv`: a cell's repetitions reduced to median, min and max per phase,
/// its result, and its speedup against the experiment's baseline flag set (same query,
/// size and backend; SQLite engines are compared with the baseline on the first backend).
public struct SummaryRow: Equatable, Sendable {
    public let cell: Cell
    public let experiment: String
    public let shape: String
    public let seed: UInt64
    /// As the config's flag set writes it now, when read back with the config (`StoredFlags`).
    public internal(set) var flags: String
    public let repetitions: Int
    public let plan: Spread
    public let optimize: Spread
    public let run: Spread
    public let total: Spread
    public let resultRows: Int
    public let resultHash: String
    public let sourceRowsRead: Int?
    public let baseline: String
    /// Baseline median total time divided by this cell's: above 1 is faster than the baseline.
    public let speedup: Double?
    /// Bootstrap confidence intervals (`BootstrapIntervals`) of the median total time and of
    /// the speedup; nil when they could not be computed or the file predates them.
    public var totalInterval: Interval?
    public var speedupInterval: Interval?
    /// A change cell's per-transaction figures; nil outside change experiments.
    public var change: ChangeSummary?

    /// Per-transaction time (run_us, the propagation; and total_us) at the 95th percentile,
    /// and the source rows read per transaction: median, 95th percentile, max and total.
    public struct ChangeSummary: Equatable, Sendable {
        public let transactions: Int
        public let runP95: Double
        public let totalP95: Double
        public let rowsReadMedian: Double
        public let rowsReadP95: Double
        public let rowsReadMax: Int
        public let rowsReadTotal: Int

        public static let columnNames = [
            "mode", "transactions", "run_us_p95", "total_us_p95", "source_rows_read_median", "source_rows_read_p95",
            "source_rows_read_max", "source_rows_read_total",
        ]

        init(_ records: [TimingRecord]) {
            transactions = Set(records.compactMap { $0.change?.transaction }).count
            runP95 = Percentile.of(records.map(\.runMicroseconds), 0.95)
            totalP95 = Percentile.of(records.map(\.totalMicroseconds), 0.95)
            let read = records.map { Double($0.counters.first.flatMap { $0 } ?? 0) }
            rowsReadMedian = Spread(read)?.median ?? 0
            rowsReadP95 = Percentile.of(read, 0.95)
            rowsReadMax = Int(read.max() ?? 0)
            rowsReadTotal = Int(read.reduce(0, +))
        }

        init(_ r: CSVRecord) throws {
            transactions = try r.integer("transactions", in: 1...Int.max)
            runP95 = try r.microseconds("run_us_p95")
            totalP95 = try r.microseconds("total_us_p95")
            rowsReadMedian = try r.microseconds("source_rows_read_median")
            rowsReadP95 = try r.microseconds("source_rows_read_p95")
            rowsReadMax = try r.integer("source_rows_read_max", in: 0...Int.max)
            rowsReadTotal = try r.integer("source_rows_read_total", in: 0...Int.max)
        }

        func fields(mode: String) -> [String] {
            [mode, String(transactions), TimingRecord.format(runP95), TimingRecord.format(totalP95),
             TimingRecord.format(rowsReadMedian), TimingRecord.format(rowsReadP95), String(rowsReadMax), String(rowsReadTotal)]
        }
    }

    /// The columns before the confidence intervals were added; such files are still read.
    public static let headerWithoutIntervals: [String] = {
        var h = ["experiment", "query", "shape", "rows", "seed", "backend", "engine", "flags", "flagset", "repetitions"]
        for phase in ["plan_us", "optimize_us", "run_us", "total_us"] {
            h += ["\(phase)_median", "\(phase)_min", "\(phase)_max"]
        }
        return h + ["result_rows", "result_hash", "source_rows_read", "baseline", "speedup"]
    }()

    public static let intervalColumns = ["total_us_median_ci_low", "total_us_median_ci_high", "speedup_ci_low", "speedup_ci_high"]
    public static let header = headerWithoutIntervals + intervalColumns
    /// A change experiment's summary: the usual columns (over every transaction of every
    /// repetition), then `ChangeSummary.columnNames`.
    public static let changeHeader = header + ChangeSummary.columnNames

    public var fields: [String] {
        var f = [experiment, cell.query, shape, String(cell.rows), String(seed), cell.backend, cell.engine, flags,
                 cell.flagset, String(repetitions)]
        for s in [plan, optimize, run, total] {
            f += [TimingRecord.format(s.median), TimingRecord.format(s.minimum), TimingRecord.format(s.maximum)]
        }
        return f + [String(resultRows), resultHash, sourceRowsRead.map(String.init) ?? "", baseline,
                    speedup.map { String(format: "%.2f", $0) } ?? "",
                    totalInterval.map { TimingRecord.format($0.low) } ?? "", totalInterval.map { TimingRecord.format($0.high) } ?? "",
                    speedupInterval.map { String(format: "%.2f", $0.low) } ?? "",
                    speedupInterval.map { String(format: "%.2f", $0.high) } ?? ""]
            + (change?.fields(mode: cell.mode) ?? [])
    }

    /// Reads a row of `summary.csv` back (for `compare`), range-checking every value.
    init(_ r: CSVRecord) throws {
        func spread(_ phase: String) throws -> Spread {
            let m = try r.microseconds("\(phase)_median"), lo = try r.microseconds("\(phase)_min")
            let hi = try r.microseconds("\(phase)_max")
            guard lo <= m, m <= hi else {
                throw r.failure("\(phase)_median", "expected \(phase)_min <= \(phase)_median <= \(phase)_max")
            }
            return Spread(median: m, minimum: lo, maximum: hi)
        }
        cell = Cell(query: r.text("query"), rows: try r.integer("rows", in: 1...Int.max), backend: r.text("backend"),
                    engine: r.text("engine"), flagset: r.text("flagset"), mode: r.text("mode"))
        experiment = r.text("experiment")
        shape = r.text("shape")
        seed = try r.unsigned("seed")
        flags = r.text("flags")
        repetitions = try r.integer("repetitions", in: 1...Int.max)
        plan = try spread("plan_us")
        optimize = try spread("optimize_us")
        run = try spread("run_us")
        total = try spread("total_us")
        resultRows = try r.integer("result_rows", in: 0...Int.max)
        resultHash = try r.resultHash("result_hash")
        sourceRowsRead = try r.optionalCount("source_rows_read")
        baseline = r.text("baseline")
        speedup = try r.optionalRatio("speedup")
        totalInterval = try r.optionalInterval("total_us_median_ci_low", "total_us_median_ci_high", time: true)
        speedupInterval = try r.optionalInterval("speedup_ci_low", "speedup_ci_high", time: false)
        change = r.text("mode").isEmpty ? nil : try ChangeSummary(r)
    }

    init(records: [TimingRecord], baseline: String, baselineTotal: Double?) {
        let first = records[0]
        cell = first.cell
        experiment = first.experiment
        shape = first.shape
        seed = first.seed
        flags = first.flags
        repetitions = records.count
        plan = Spread(records.map(\.planMicroseconds)) ?? Spread(median: 0, minimum: 0, maximum: 0)
        optimize = Spread(records.map(\.optimizeMicroseconds)) ?? Spread(median: 0, minimum: 0, maximum: 0)
        run = Spread(records.map(\.runMicroseconds)) ?? Spread(median: 0, minimum: 0, maximum: 0)
        total = Spread(records.map(\.totalMicroseconds)) ?? Spread(median: 0, minimum: 0, maximum: 0)
        // A change cell's result is its outputs' state after the last transaction.
        let result = first.change == nil ? first : (records.last ?? first)
        resultRows = result.resultRows
        resultHash = result.resultHash
        change = first.change == nil ? nil : ChangeSummary(records)
        // A change cell's rows read: the median per transaction (the total is in the change columns).
        sourceRowsRead = change.map { Int($0.rowsReadMedian.rounded()) } ?? (first.counters.first ?? nil)
        self.baseline = baseline
        let median = total.median
        speedup = baselineTotal.flatMap { base in median > 0 ? base / median : nil }
    }
}

public enum Summary {
    public static let fileName = "summary.csv"

    /// One row per cell with records, in the canonical cell order.
    public static func rows(_ records: [TimingRecord], order: [Cell], baseline: String?) -> [SummaryRow] {
        let byCell = Dictionary(grouping: records, by: \.cell)
        let totals = byCell.mapValues { Spread($0.map(\.totalMicroseconds))?.median ?? 0 }
        return order.compactMap { cell in
            guard let cellRecords = byCell[cell], !cellRecords.isEmpty else { return nil }
            let baselineTotal = baseline.flatMap { totals[baselineCell(of: cell, baseline: $0, order: order)] }
            return SummaryRow(records: cellRecords.sorted {
                                  ($0.repetition, $0.change?.transaction ?? 0) < ($1.repetition, $1.change?.transaction ?? 0) },
                              baseline: baseline ?? "", baselineTotal: baselineTotal)
        }
    }

    /// The cell a cell's speedup is measured against: the baseline flag set on the same
    /// query, size and backend (for a SQLite engine, on the first backend).
    public static func baselineCell(of cell: Cell, baseline: String, order: [Cell]) -> Cell {
        let firstBackend = order.first(where: \.isTestbed)?.backend ?? "memory"
        return Cell(query: cell.query, rows: cell.rows, backend: cell.isTestbed ? cell.backend : firstBackend,
                    engine: Cell.testbedEngine, flagset: baseline, mode: cell.mode)
    }

    public static func text(_ rows: [SummaryRow], changes: Bool = false) -> String {
        CSVTable(header: changes ? SummaryRow.changeHeader : SummaryRow.header, rows: rows.map(\.fields)).text
    }

    /// The rows of `path`, every value range-checked; with the experiment that wrote them,
    /// each row must also be one of its cells, with no more repetitions than it runs, and
    /// say what the `timings.csv` beside it gives (`SummaryAgreement`).
    public static func read(_ path: String, experiment: Experiment?) throws -> [SummaryRow] {
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        if table.header != SummaryRow.headerWithoutIntervals && table.header != SummaryRow.changeHeader {
            try table.requireHeader(SummaryRow.header, file: path)
        }
        let matrix = experiment.map(ResultMatrix.init)
        var seen: [Cell: Int] = [:]
        let records = table.located(file: path)
        let rows = try records.map { located in
            var row = try SummaryRow(located)
            if let matrix {
                row.flags = try matrix.check(row.cell, experiment: row.experiment, shape: row.shape, seed: row.seed,
                                             flags: row.flags, at: located)
                if row.repetitions > matrix.experiment.recordsPerCell {
                    throw located.failure("repetitions", "the config runs \(matrix.experiment.recordsPerCell) per cell")
                }
                // `report` read a baseline the config does not name (`compare` refused it).
                let expected = matrix.experiment.speedupBaseline ?? ""
                if row.baseline != expected {
                    throw located.failure("baseline", "the config's baseline is " + (expected.isEmpty ? "none" : Printable.quoted(expected)))
                }
            } else {
                try ResultMatrix.checkNames(row.cell, flags: row.flags, at: located)
            }
            if let first = seen[row.cell] { throw ExperimentFailure.usage("\(located.place): \(row.cell) is already on line \(first)") }
            seen[row.cell] = located.line
            return row
        }
        if let experiment { try SummaryAgreement.check(rows, located: records, path: path, experiment: experiment) }
        return rows
    }
}
