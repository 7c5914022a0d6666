import FileSupport
import Foundation
import QueryEngine

/// One repetition of one cell: a row of `timings.csv`. Times are microseconds rounded to
/// 0.1 when measured, so a record read back from the CSV equals the one written.
public struct TimingRecord: Equatable, Sendable {
    public var experiment: String
    public var query: String
    public var shape: String
    public var rows: Int
    public var seed: UInt64
    public var backend: String
    public var engine: String
    public var flags: String
    public var flagset: String
    public var repetition: Int
    public var planMicroseconds: Double
    public var optimizeMicroseconds: Double
    public var runMicroseconds: Double
    public var resultRows: Int
    public var resultHash: String
    /// One value per `RunCounters.columnNames`; nil (an empty field) for SQLite engines.
    public var counters: [Int?]

    public var totalMicroseconds: Double { Self.round(planMicroseconds + optimizeMicroseconds + runMicroseconds) }

    public var cell: Cell { Cell(query: query, rows: rows, backend: backend, engine: engine, flagset: flagset) }

    public static func round(_ microseconds: Double) -> Double { (microseconds * 10).rounded() / 10 }

    /// The contract columns first, then the flag-set name, then every other counter.
    public static var header: [String] {
        ["experiment", "query", "shape", "rows", "seed", "backend", "engine", "flags", "flagset", "repetition",
         "plan_us", "optimize_us", "run_us", "total_us", "result_rows", "result_hash"] + RunCounters.columnNames
    }

    /// Columns that hold measured time (everything else is deterministic).
    public static let timingColumns: Set<String> = ["plan_us", "optimize_us", "run_us", "total_us"]

    public var fields: [String] {
        [experiment, query, shape, String(rows), String(seed), backend, engine, flags, flagset, String(repetition),
         Self.format(planMicroseconds), Self.format(optimizeMicroseconds), Self.format(runMicroseconds),
         Self.format(totalMicroseconds), String(resultRows), resultHash]
            + counters.map { $0.map(String.init) ?? "" }
    }

    public static func format(_ microseconds: Double) -> String { String(format: "%.1f", microseconds) }

    public init(
        experiment: String, query: String, shape: String, rows: Int, seed: UInt64, backend: String, engine: String,
        flags: String, flagset: String, repetition: Int, planMicroseconds: Double, optimizeMicroseconds: Double,
        runMicroseconds: Double, resultRows: Int, resultHash: String, counters: [Int?]
    ) {
        self.experiment = experiment
        self.query = query
        self.shape = shape
        self.rows = rows
        self.seed = seed
        self.backend = backend
        self.engine = engine
        self.flags = flags
        self.flagset = flagset
        self.repetition = repetition
        self.planMicroseconds = Self.round(planMicroseconds)
        self.optimizeMicroseconds = Self.round(optimizeMicroseconds)
        self.runMicroseconds = Self.round(runMicroseconds)
        self.resultRows = resultRows
        self.resultHash = resultHash
        self.counters = counters
    }

    /// Reads a record from a `timings.csv` row, range-checking every value.
    init(_ record: CSVRecord) throws {
        self.init(
            experiment: record.text("experiment"), query: record.text("query"), shape: record.text("shape"),
            rows: try record.integer("rows", in: 1...Int.max), seed: try record.unsigned("seed"),
            backend: record.text("backend"), engine: record.text("engine"), flags: record.text("flags"),
            flagset: record.text("flagset"), repetition: try record.integer("repetition", in: 1...Int.max),
            planMicroseconds: try record.microseconds("plan_us"), optimizeMicroseconds: try record.microseconds("optimize_us"),
            runMicroseconds: try record.microseconds("run_us"), resultRows: try record.integer("result_rows", in: 0...Int.max),
            resultHash: record.text("result_hash"),
            counters: try RunCounters.columnNames.map { try record.optionalCount($0) })
        // Each phase is rounded to 0.1 µs before the total is, so they may differ by that much.
        if abs(try record.microseconds("total_us") - totalMicroseconds) > 0.15 {
            throw record.failure("total_us", "expected plan_us + optimize_us + run_us = \(Self.format(totalMicroseconds))")
        }
    }
}

/// `timings.csv`: every record, sorted by cell in the experiment's canonical order, then repetition.
public enum TimingsFile {
    public static let name = "timings.csv"

    public static func text(_ records: [TimingRecord], order: [Cell]) -> String {
        let position = Dictionary(order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let sorted = records.sorted {
            let a = position[$0.cell] ?? Int.max, b = position[$1.cell] ?? Int.max
            return a != b ? a < b : ($0.cell != $1.cell ? $0.cell < $1.cell : $0.repetition < $1.repetition)
        }
        return CSVTable(header: TimingRecord.header, rows: sorted.map(\.fields)).text
    }

    /// The records of `path`, each checked against the experiment that wrote it: a value out
    /// of range, a cell not in its matrix or a repetition given twice is refused at its line.
    public static func read(_ path: String, experiment: Experiment) throws -> [TimingRecord] {
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        try table.requireHeader(TimingRecord.header, file: path)
        let matrix = ResultMatrix(experiment)
        var seen: [String: Int] = [:]
        return try table.located(file: path).map { located in
            let record = try TimingRecord(located)
            try matrix.check(record.cell, experiment: record.experiment, shape: record.shape, seed: record.seed,
                             flags: record.flags, at: located)
            guard record.repetition <= experiment.repetitions else {
                throw located.failure("repetition", "the config runs \(experiment.repetitions) repetitions per cell")
            }
            let key = "\(record.cell)\u{0}\(record.repetition)"
            if let first = seen[key] {
                throw ExperimentFailure.usage("\(located.place): repetition \(record.repetition) of \(record.cell) "
                    + "is already on line \(first)")
            }
            seen[key] = located.line
            return record
        }
    }
}
