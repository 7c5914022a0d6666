import Relational
import Workloads

/// A SQL engine the testbed compares itself with: the same relation graph translated to SQL
/// and run on the same data. One type per engine implements this protocol and is registered
/// once in `EngineRegistry.kinds`; nothing else in the testbed names an engine.
///
/// The life of an engine, as the experiment runner, `testbed query` and `testbed verify`
/// drive it (these names are stable; engines in other files rely on them):
///
/// 1. **start** — `EngineKind.start(settings)` returns a running engine (a database opened,
///    a helper process or a server started). Settings come from the config entry
///    `{engine: NAME, name: LABEL, settings: {...}}` and were checked by
///    `EngineKind.checkSetting` before.
/// 2. **load** — `load(_:)` loads tables (replacing any loaded before) with the same indexes
///    as the other backends, and returns the catalog that queries are parsed against. Its
///    sources may be placeholders (`EngineTable`) that only carry a name, a scheme and
///    column types: the testbed never reads rows from them.
/// 3. **prepare** — `prepare(_:)` translates the outputs of a query (relations over that
///    catalog) to one SQL statement each, in the engine's dialect, with bound parameters.
/// 4. **run** — `run(_:)` runs the statements and fetches every row, as `Value`s in each
///    output's scheme order; it reports the engine's own time when the engine measures it.
/// 5. **explain** — `explain(_:)` describes the plan of each output (`EXPLAIN`, JSON where
///    the engine offers it).
/// 6. **stop** — `stop()` ends everything the engine started (processes, servers,
///    temporary directories). It is idempotent, and `deinit` must call it too, so an error
///    or Ctrl-C that unwinds the caller leaves nothing running.
///
/// Errors are `EngineError`s naming the engine, what failed and, for missing software, how
/// to install it.
public protocol BaselineEngine: AnyObject {
    /// The label this engine runs under (the config's `name`, or the registered name).
    var label: String { get }
    func load(_ tables: [DatasetTable]) throws -> RelationCatalog
    func prepare(_ outputs: [Relation]) throws -> EngineStatement
    func run(_ statement: EngineStatement) throws -> EngineRun
    func explain(_ statement: EngineStatement) throws -> [EnginePlan]
    func stop()
}

/// One SQL statement computing one output, with its bound parameters.
public struct SQLStatement: Sendable {
    public let sql: String
    public let parameters: [Value]
    /// The output's scheme: result columns come in this order. A scheme of no attributes is
    /// carried as one dummy column (one row means {()}, none means {}).
    public let scheme: Scheme

    public init(sql: String, parameters: [Value], scheme: Scheme) {
        self.sql = sql
        self.parameters = parameters
        self.scheme = scheme
    }

    /// Rows as the engine returned them, made into the output's rows (the dummy column of a
    /// zero-attribute output dropped).
    public func rows(from fetched: [Row]) -> [Row] {
        if scheme.count == 0 { return fetched.isEmpty ? [] : [Row([])] }
        return fetched
    }
}

/// A prepared query: one statement per output, in output order.
public struct EngineStatement: Sendable {
    public let outputs: [SQLStatement]

    public init(outputs: [SQLStatement]) { self.outputs = outputs }
}

/// What one run of a prepared query returned.
public struct EngineRun {
    /// Every row of each output, in output order.
    public var results: [[Row]]
    /// The engine's own time for running the statements and fetching every row, in
    /// microseconds, measured where the engine runs (inside a helper process, excluding
    /// the transfer to the testbed); nil when the engine reports none.
    public var engineMicroseconds: Double?

    public init(results: [[Row]], engineMicroseconds: Double?) {
        self.results = results
        self.engineMicroseconds = engineMicroseconds
    }
}

/// An engine's description of the plan of one output.
public struct EnginePlan: Sendable {
    /// `json` or `txt`: the file extension the plan is written with.
    public let format: String
    public let text: String

    public init(format: String, text: String) {
        self.format = format
        self.text = text
    }
}
