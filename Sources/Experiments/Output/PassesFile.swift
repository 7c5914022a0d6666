import FileSupport
import QueryEngine

/// One row of `passes.csv`: where optimizer time went in one repetition of a testbed cell,
/// one optimizer pass (`kind` pass) or one heuristic hook (`kind` hook).
public struct PassRecord: Equatable, Sendable {
    public enum Kind: String, Sendable { case pass, hook }

    public let experiment: String
    public let cell: Cell
    public let flags: String
    public let repetition: Int
    public let kind: Kind
    /// The pass's name (`nested-union-folding`), or `heuristic.hook`
    /// (`subtree-copying.willProvideFilter`).
    public let name: String
    /// 1 for a pass; for a hook, how often it was called.
    public let calls: Int
    public let microseconds: Double

    public static let header = [
        "experiment", "query", "rows", "backend", "flagset", "flags", "repetition", "kind", "name", "calls", "us",
    ]

    var fields: [String] {
        [experiment, cell.query, String(cell.rows), cell.backend, cell.flagset, flags, String(repetition),
         kind.rawValue, name, String(calls), TimingRecord.format(microseconds)]
    }

    /// The rows of one repetition's run.
    static func records(
        experiment: String, cell: Cell, flags: String, repetition: Int, passes: [PassReport], hooks: [HookReport]
    ) -> [PassRecord] {
        passes.map {
            PassRecord(experiment: experiment, cell: cell, flags: flags, repetition: repetition, kind: .pass,
                       name: $0.name, calls: 1, microseconds: $0.microseconds)
        } + hooks.map {
            PassRecord(experiment: experiment, cell: cell, flags: flags, repetition: repetition, kind: .hook,
                       name: $0.name, calls: $0.calls, microseconds: $0.microseconds)
        }
    }
}

/// `passes.csv`: per testbed cell and repetition, the time of each optimizer pass that ran
/// and of each heuristic hook that was called. Written beside `timings.csv`, after every
/// cell; a resumed run keeps the rows of the cells it kept.
public enum PassesFile {
    public static let name = "passes.csv"

    /// The rows in the matrix's cell order (as `timings.csv`), each cell's in run order.
    public static func text(_ records: [PassRecord], order: [Cell]) -> String {
        let position = Dictionary(order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let sorted = records.enumerated().sorted {
            let a = position[$0.element.cell] ?? Int.max, b = position[$1.element.cell] ?? Int.max
            return a != b ? a < b : $0.offset < $1.offset
        }
        return CSVTable(header: PassRecord.header, rows: sorted.map(\.element.fields)).text
    }

    /// Reads a run directory's `run.txt` and `passes.csv` only to refuse them when present
    /// but unreadable, for the commands that do not use them (`compare`): each is an error
    /// at its line in every command that reads a run (README, "Result files read back").
    public static func checkRunFiles(in directory: String, experiment: Experiment?) throws {
        if FileSystem.exists(FileSystem.join(directory, RunState.fileName)) { _ = try RunState.read(directory: directory) }
        if let experiment { _ = try read(FileSystem.join(directory, name), experiment: experiment, keep: Set(experiment.cells)) }
    }

    /// The rows of an earlier run's `passes.csv` whose cells are in `keep` (nothing when the
    /// file does not exist). A malformed file is refused at its line, whichever cell the line is of.
    public static func read(_ path: String, experiment: Experiment, keep: Set<Cell>) throws -> [PassRecord] {
        guard FileSystem.exists(path) else { return [] }
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        try table.requireHeader(PassRecord.header, file: path)
        var out: [PassRecord] = []
        // Rows are held to the config, as timings.csv's are: another experiment, a cell or
        // repetition the config does not run, or a row given twice was read (or dropped).
        let cells = Set(experiment.cells)
        var seen: [String: Int] = [:]
        for row in table.located(file: path) {
            let cell = Cell(query: row.text("query"), rows: try row.integer("rows", in: 1...Int.max),
                            backend: row.text("backend"), engine: Cell.testbedEngine, flagset: row.text("flagset"))
            guard let kind = PassRecord.Kind(rawValue: row.text("kind")) else {
                throw row.failure("kind", "expected pass or hook")
            }
            guard row.text("experiment") == experiment.name else {
                throw row.failure("experiment", "the config's experiment is \(Printable.quoted(experiment.name))")
            }
            guard cells.contains(cell) else { throw row.failure("query", "the config runs no such cell (\(cell))") }
            let repetition = try row.integer("repetition", in: 1...experiment.repetitions)
            let key = "\(cell)|\(repetition)|\(kind.rawValue)|\(row.text("name"))"
            if let first = seen[key] { throw row.failure("name", "this row is already on line \(first)") }
            seen[key] = row.line
            // Today's string for a file written before a later heuristic existed (`StoredFlags`).
            let stored = row.text("flags")
            let flags = (try? StoredFlags.reconciled(stored, expected: experiment.flags(of: cell))) ?? stored
            let record = PassRecord(
                experiment: row.text("experiment"), cell: cell, flags: flags,
                repetition: repetition, kind: kind, name: row.text("name"),
                calls: try row.integer("calls", in: 0...Int.max), microseconds: try row.microseconds("us"))
            // Every row is checked, also those of cells left out.
            if keep.contains(cell) { out.append(record) }
        }
        return out
    }
}
