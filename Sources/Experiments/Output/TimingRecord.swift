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

    /// Reads a record from a `timings.csv` row.
    init(_ record: [String: String], file: String, line: Int) throws {
        func text(_ key: String) throws -> String {
            guard let value = record[key] else { throw ExperimentFailure.output("\(file): no column '\(key)'") }
            return value
        }
        func number<T: LosslessStringConvertible>(_ key: String, _ type: T.Type) throws -> T {
            guard let value = T(try text(key)) else {
                throw ExperimentFailure.output("\(file): line \(line): column \(key) holds '\(record[key] ?? "")', expected a number")
            }
            return value
        }
        self.init(
            experiment: try text("experiment"), query: try text("query"), shape: try text("shape"),
            rows: try number("rows", Int.self), seed: try number("seed", UInt64.self), backend: try text("backend"),
            engine: try text("engine"), flags: try text("flags"), flagset: try text("flagset"),
            repetition: try number("repetition", Int.self), planMicroseconds: try number("plan_us", Double.self),
            optimizeMicroseconds: try number("optimize_us", Double.self), runMicroseconds: try number("run_us", Double.self),
            resultRows: try number("result_rows", Int.self), resultHash: try text("result_hash"),
            counters: RunCounters.columnNames.map { record[$0].flatMap { Int($0) } })
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

    public static func read(_ path: String) throws -> [TimingRecord] {
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        return try table.records.enumerated().map { try TimingRecord($0.element, file: path, line: $0.offset + 2) }
    }
}
