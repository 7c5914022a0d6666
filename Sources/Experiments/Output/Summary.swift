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
    public let flags: String
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
                    engine: r.text("engine"), flagset: r.text("flagset"))
        experiment = r.text("experiment")
        shape = r.text("shape")
        seed = try r.unsigned("seed")
        flags = r.text("flags")
        repetitions = try r.integer("repetitions", in: 1...ExperimentLimits.repetitions.upperBound)
        plan = try spread("plan_us")
        optimize = try spread("optimize_us")
        run = try spread("run_us")
        total = try spread("total_us")
        resultRows = try r.integer("result_rows", in: 0...Int.max)
        resultHash = r.text("result_hash")
        sourceRowsRead = try r.optionalCount("source_rows_read")
        baseline = r.text("baseline")
        speedup = try r.optionalRatio("speedup")
        totalInterval = try r.optionalInterval("total_us_median_ci_low", "total_us_median_ci_high", time: true)
        speedupInterval = try r.optionalInterval("speedup_ci_low", "speedup_ci_high", time: false)
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
        resultRows = first.resultRows
        resultHash = first.resultHash
        sourceRowsRead = first.counters.first ?? nil
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
            return SummaryRow(records: cellRecords.sorted { $0.repetition < $1.repetition },
                              baseline: baseline ?? "", baselineTotal: baselineTotal)
        }
    }

    /// The cell a cell's speedup is measured against: the baseline flag set on the same
    /// query, size and backend (for a SQLite engine, on the first backend).
    public static func baselineCell(of cell: Cell, baseline: String, order: [Cell]) -> Cell {
        let firstBackend = order.first(where: \.isTestbed)?.backend ?? "memory"
        return Cell(query: cell.query, rows: cell.rows, backend: cell.isTestbed ? cell.backend : firstBackend,
                    engine: Cell.testbedEngine, flagset: baseline)
    }

    public static func text(_ rows: [SummaryRow]) -> String {
        CSVTable(header: SummaryRow.header, rows: rows.map(\.fields)).text
    }

    /// The rows of `path`, every value range-checked; with the experiment that wrote them,
    /// each row must also be one of its cells, with no more repetitions than it runs.
    public static func read(_ path: String, experiment: Experiment?) throws -> [SummaryRow] {
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        if table.header != SummaryRow.headerWithoutIntervals { try table.requireHeader(SummaryRow.header, file: path) }
        let matrix = experiment.map(ResultMatrix.init)
        var seen: [Cell: Int] = [:]
        return try table.located(file: path).map { located in
            let row = try SummaryRow(located)
            if let matrix {
                try matrix.check(row.cell, experiment: row.experiment, shape: row.shape, seed: row.seed, flags: row.flags, at: located)
                if row.repetitions > matrix.experiment.repetitions {
                    throw located.failure("repetitions", "the config runs \(matrix.experiment.repetitions) per cell")
                }
            } else {
                try ResultMatrix.checkNames(row.cell, flags: row.flags, at: located)
            }
            if let first = seen[row.cell] { throw ExperimentFailure.usage("\(located.place): \(row.cell) is already on line \(first)") }
            seen[row.cell] = located.line
            return row
        }
    }
}
