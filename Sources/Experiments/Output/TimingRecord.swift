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
    /// In a change experiment, the transaction this row measures; nil otherwise.
    public var change: ChangeColumns?

    /// A change experiment's columns: the mode, the transaction's number in the stream (from
    /// 1), the statements' size (rows named by adds, 1 per update or delete), and the rows the
    /// observed outputs gained and lost.
    public struct ChangeColumns: Equatable, Sendable {
        public var mode: String
        public var transaction: Int
        public var changesIn: Int
        public var rowsAdded: Int
        public var rowsRemoved: Int

        public init(mode: String, transaction: Int, changesIn: Int, rowsAdded: Int, rowsRemoved: Int) {
            self.mode = mode
            self.transaction = transaction
            self.changesIn = changesIn
            self.rowsAdded = rowsAdded
            self.rowsRemoved = rowsRemoved
        }

        public static let columnNames = ["mode", "transaction", "changes_in", "rows_added", "rows_removed"]
        var fields: [String] { [mode, String(transaction), String(changesIn), String(rowsAdded), String(rowsRemoved)] }
    }

    public var totalMicroseconds: Double { Self.round(planMicroseconds + optimizeMicroseconds + runMicroseconds) }

    public var cell: Cell { Cell(query: query, rows: rows, backend: backend, engine: engine, flagset: flagset, mode: change?.mode ?? "") }

    /// The records whose results must be equal: the cell's group, and in a change experiment
    /// the same transaction.
    public var equalityGroup: CellGroup { CellGroup(query: query, rows: rows, transaction: change?.transaction ?? 0) }

    public static func round(_ microseconds: Double) -> Double { (microseconds * 10).rounded() / 10 }

    /// The contract columns first, then the flag-set name, then every other counter.
    public static var header: [String] { header(changes: false) }

    /// A change experiment's header has `ChangeColumns.columnNames` after `repetition`.
    public static func header(changes: Bool) -> [String] {
        ["experiment", "query", "shape", "rows", "seed", "backend", "engine", "flags", "flagset", "repetition"]
            + (changes ? ChangeColumns.columnNames : [])
            + ["plan_us", "optimize_us", "run_us", "total_us", "result_rows", "result_hash"] + RunCounters.columnNames
    }

    /// Columns that hold measured time (everything else is deterministic).
    public static let timingColumns: Set<String> = ["plan_us", "optimize_us", "run_us", "total_us"]

    public var fields: [String] {
        [experiment, query, shape, String(rows), String(seed), backend, engine, flags, flagset, String(repetition)]
            + (change?.fields ?? [])
            + [Self.format(planMicroseconds), Self.format(optimizeMicroseconds), Self.format(runMicroseconds),
         Self.format(totalMicroseconds), String(resultRows), resultHash]
            + counters.map { $0.map(String.init) ?? "" }
    }

    public static func format(_ microseconds: Double) -> String { String(format: "%.1f", microseconds) }

    public init(
        experiment: String, query: String, shape: String, rows: Int, seed: UInt64, backend: String, engine: String,
        flags: String, flagset: String, repetition: Int, planMicroseconds: Double, optimizeMicroseconds: Double,
        runMicroseconds: Double, resultRows: Int, resultHash: String, counters: [Int?], change: ChangeColumns? = nil
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
        self.change = change
    }

    /// Reads a record from a `timings.csv` row, range-checking every value.
    init(_ record: CSVRecord, changes: Bool = false) throws {
        let change = changes ? ChangeColumns(
            mode: record.text("mode"), transaction: try record.integer("transaction", in: 1...Int.max),
            changesIn: try record.integer("changes_in", in: 0...Int.max), rowsAdded: try record.integer("rows_added", in: 0...Int.max),
            rowsRemoved: try record.integer("rows_removed", in: 0...Int.max)) : nil
        self.init(
            experiment: record.text("experiment"), query: record.text("query"), shape: record.text("shape"),
            rows: try record.integer("rows", in: 1...Int.max), seed: try record.unsigned("seed"),
            backend: record.text("backend"), engine: record.text("engine"), flags: record.text("flags"),
            flagset: record.text("flagset"), repetition: try record.integer("repetition", in: 1...Int.max),
            planMicroseconds: try record.microseconds("plan_us"), optimizeMicroseconds: try record.microseconds("optimize_us"),
            runMicroseconds: try record.microseconds("run_us"), resultRows: try record.integer("result_rows", in: 0...Int.max),
            resultHash: try record.resultHash("result_hash"),
            counters: try RunCounters.columnNames.map { try record.optionalCount($0) }, change: change)
        // Each phase is rounded to 0.1 µs before the total is, so they may differ by that much.
        if abs(try record.microseconds("total_us") - totalMicroseconds) > 0.15 {
            throw record.failure("total_us", "expected plan_us + optimize_us + run_us = \(Self.format(totalMicroseconds))")
        }
    }
}

/// `timings.csv`: every record, sorted by cell in the experiment's canonical order, then repetition.
public enum TimingsFile {
    public static let name = "timings.csv"

    public static func text(_ records: [TimingRecord], order: [Cell], changes: Bool = false) -> String {
        let position = Dictionary(order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let sorted = records.sorted {
            let a = position[$0.cell] ?? Int.max, b = position[$1.cell] ?? Int.max
            if a != b { return a < b }
            if $0.cell != $1.cell { return $0.cell < $1.cell }
            return ($0.repetition, $0.change?.transaction ?? 0) < ($1.repetition, $1.change?.transaction ?? 0)
        }
        return CSVTable(header: TimingRecord.header(changes: changes), rows: sorted.map(\.fields)).text
    }

    /// The records of `path`, each checked against the experiment that wrote it: a value out
    /// of range, a cell not in its matrix or a repetition given twice is refused at its line.
    public static func read(_ path: String, experiment: Experiment) throws -> [TimingRecord] {
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        let changes = experiment.changes
        try table.requireHeader(TimingRecord.header(changes: changes != nil), file: path)
        let matrix = ResultMatrix(experiment)
        var seen: [String: Int] = [:]
        return try table.located(file: path).map { located in
            var record = try TimingRecord(located, changes: changes != nil)
            if let changes, let t = record.change?.transaction, t > changes.transactions {
                throw located.failure("transaction", "the config runs \(changes.transactions) transactions per stream")
            }
            record.flags = try matrix.check(record.cell, experiment: record.experiment, shape: record.shape, seed: record.seed,
                                            flags: record.flags, at: located)
            guard record.repetition <= experiment.repetitions else {
                throw located.failure("repetition", "the config runs \(experiment.repetitions) repetitions per cell")
            }
            let key = "\(record.cell)\u{0}\(record.repetition)\u{0}\(record.change?.transaction ?? 0)"
            if let first = seen[key] {
                throw ExperimentFailure.usage("\(located.place): repetition \(record.repetition) of \(record.cell) "
                    + (record.change.map { "transaction \($0.transaction) " } ?? "") + "is already on line \(first)")
            }
            seen[key] = located.line
            return record
        }
    }
}
