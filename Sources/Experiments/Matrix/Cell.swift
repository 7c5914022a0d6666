/// One cell of the experiment matrix: a query at a size, run by one engine (the testbed
/// under a flag set on a backend, or a SQLite baseline). Repetitions of a cell are rows of
/// `timings.csv`; the cell is the unit of resume, shards and the summary.
public struct Cell: Hashable, Sendable, Comparable, CustomStringConvertible {
    public static let testbedEngine = "testbed"

    public let query: String
    public let rows: Int
    public let backend: String
    public let engine: String
    /// The config's flag-set name; for a SQLite engine, the engine's name.
    public let flagset: String
    /// In a change experiment, how the observed outputs are kept up to date (a `ChangeMode`
    /// name); empty otherwise.
    public let mode: String

    public init(query: String, rows: Int, backend: String, engine: String, flagset: String, mode: String = "") {
        self.query = query
        self.rows = rows
        self.backend = backend
        self.engine = engine
        self.flagset = flagset
        self.mode = mode
    }

    public var isTestbed: Bool { engine == Cell.testbedEngine }

    /// The cells whose results must be equal: same query on the same data.
    public var group: CellGroup { CellGroup(query: query, rows: rows) }

    /// The same cell in another change mode.
    public func with(mode: String) -> Cell {
        Cell(query: query, rows: rows, backend: backend, engine: engine, flagset: flagset, mode: mode)
    }

    public var description: String {
        (isTestbed ? "\(query) rows=\(rows) \(backend) \(flagset)" : "\(query) rows=\(rows) \(engine)")
            + (mode.isEmpty ? "" : " \(mode)")
    }

    public static func < (a: Cell, b: Cell) -> Bool {
        (a.rows, a.query, a.backend, a.engine, a.flagset, a.mode) < (b.rows, b.query, b.backend, b.engine, b.flagset, b.mode)
    }
}

/// Same query, size and data: every cell of a group must produce the same result.
public struct CellGroup: Hashable, Sendable, CustomStringConvertible {
    public let query: String
    public let rows: Int
    /// In a change experiment, the states after this transaction must be equal (0 otherwise).
    public var transaction = 0

    public init(query: String, rows: Int, transaction: Int = 0) {
        self.query = query
        self.rows = rows
        self.transaction = transaction
    }

    public var description: String {
        "\(query) at \(rows) rows" + (transaction == 0 ? "" : " after transaction \(transaction)")
    }
}
