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

    public static let header: [String] = {
        var h = ["experiment", "query", "shape", "rows", "seed", "backend", "engine", "flags", "flagset", "repetitions"]
        for phase in ["plan_us", "optimize_us", "run_us", "total_us"] {
            h += ["\(phase)_median", "\(phase)_min", "\(phase)_max"]
        }
        return h + ["result_rows", "result_hash", "source_rows_read", "baseline", "speedup"]
    }()

    public var fields: [String] {
        var f = [experiment, cell.query, shape, String(cell.rows), String(seed), cell.backend, cell.engine, flags,
                 cell.flagset, String(repetitions)]
        for s in [plan, optimize, run, total] {
            f += [TimingRecord.format(s.median), TimingRecord.format(s.minimum), TimingRecord.format(s.maximum)]
        }
        return f + [String(resultRows), resultHash, sourceRowsRead.map(String.init) ?? "", baseline,
                    speedup.map { String(format: "%.2f", $0) } ?? ""]
    }

    /// Reads a row of `summary.csv` back (for `compare`).
    init(_ r: [String: String], file: String) throws {
        func spread(_ phase: String) throws -> Spread {
            guard let m = Double(r["\(phase)_median"] ?? ""), let lo = Double(r["\(phase)_min"] ?? ""),
                  let hi = Double(r["\(phase)_max"] ?? "") else {
                throw ExperimentFailure.output("\(file): missing or malformed \(phase) columns")
            }
            return Spread(median: m, minimum: lo, maximum: hi)
        }
        guard let rows = Int(r["rows"] ?? "") else { throw ExperimentFailure.output("\(file): malformed rows column") }
        cell = Cell(query: r["query"] ?? "", rows: rows, backend: r["backend"] ?? "", engine: r["engine"] ?? "",
                    flagset: r["flagset"] ?? "")
        experiment = r["experiment"] ?? ""
        shape = r["shape"] ?? ""
        seed = UInt64(r["seed"] ?? "") ?? 0
        flags = r["flags"] ?? ""
        repetitions = Int(r["repetitions"] ?? "") ?? 0
        plan = try spread("plan_us")
        optimize = try spread("optimize_us")
        run = try spread("run_us")
        total = try spread("total_us")
        resultRows = Int(r["result_rows"] ?? "") ?? 0
        resultHash = r["result_hash"] ?? ""
        sourceRowsRead = Int(r["source_rows_read"] ?? "")
        baseline = r["baseline"] ?? ""
        speedup = Double(r["speedup"] ?? "")
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
        let firstBackend = order.first(where: \.isTestbed)?.backend ?? "memory"
        return order.compactMap { cell in
            guard let cellRecords = byCell[cell], !cellRecords.isEmpty else { return nil }
            var baselineTotal: Double?
            if let baseline {
                let reference = Cell(query: cell.query, rows: cell.rows, backend: cell.isTestbed ? cell.backend : firstBackend,
                                     engine: Cell.testbedEngine, flagset: baseline)
                baselineTotal = totals[reference]
            }
            return SummaryRow(records: cellRecords.sorted { $0.repetition < $1.repetition },
                              baseline: baseline ?? "", baselineTotal: baselineTotal)
        }
    }

    public static func text(_ rows: [SummaryRow]) -> String {
        CSVTable(header: SummaryRow.header, rows: rows.map(\.fields)).text
    }

    public static func read(_ path: String) throws -> [SummaryRow] {
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        return try table.records.map { try SummaryRow($0, file: path) }
    }
}
