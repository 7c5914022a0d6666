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

    /// The rows of an earlier run's `passes.csv` whose cells are in `keep` (nothing when the
    /// file does not exist). A malformed file is refused at its line, whichever cell the line is of.
    public static func read(_ path: String, experiment: Experiment, keep: Set<Cell>) throws -> [PassRecord] {
        guard FileSystem.exists(path) else { return [] }
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        try table.requireHeader(PassRecord.header, file: path)
        var out: [PassRecord] = []
        for row in table.located(file: path) {
            let cell = Cell(query: row.text("query"), rows: try row.integer("rows", in: 1...Int.max),
                            backend: row.text("backend"), engine: Cell.testbedEngine, flagset: row.text("flagset"))
            guard let kind = PassRecord.Kind(rawValue: row.text("kind")) else {
                throw row.failure("kind", "expected pass or hook")
            }
            // Today's string for a file written before a later heuristic existed (`StoredFlags`).
            let stored = row.text("flags")
            let flags = (try? StoredFlags.reconciled(stored, expected: experiment.flags(of: cell))) ?? stored
            let record = PassRecord(
                experiment: row.text("experiment"), cell: cell, flags: flags,
                repetition: try row.integer("repetition", in: 1...Int.max), kind: kind, name: row.text("name"),
                calls: try row.integer("calls", in: 0...Int.max), microseconds: try row.microseconds("us"))
            // Every row is checked, also those of cells left out.
            if keep.contains(cell) { out.append(record) }
        }
        return out
    }
}
