import Relational

/// A registered kind of baseline engine: its name in configs and on the command line, and
/// how to check its settings, tell whether it can run here, and start it.
public struct EngineKind: Sendable {
    /// The registered name (`sqlite`, `sqlite-analyzed`, `duckdb`, …).
    public let name: String
    /// What `timings.csv` writes in the `backend` column for this engine's cells.
    public let backend: String
    /// One line for `--help` and error messages.
    public let summary: String
    /// One line per setting a config may give, e.g. `threads: N (default 1), …`.
    public let settingsHelp: [String]
    /// nil when `name = value` is a valid setting, else what is wrong (without the name).
    public let checkSetting: @Sendable (_ name: String, _ value: String) -> String?
    /// nil when the engine's programs and packages are here, else why not and how to install
    /// them (a run that names the engine exits 2 with this text).
    public let missing: @Sendable () -> String?
    /// Starts an engine under `label` with checked settings.
    public let start: @Sendable (_ label: String, _ settings: EngineSettings) throws -> any BaselineEngine
    /// nil when the engine can take every output of a query as far as translating it tells,
    /// else why not (a typed dialect's column mixing text and numbers, NUL in PostgreSQL
    /// text). Asked when a config is read, over the dataset's parsing probe, without
    /// starting the engine: a refusal found at run time came after the testbed's own cells
    /// and ended the run failed, with exit 1.
    public let checkQuery: @Sendable (_ outputs: [Relation]) -> String?

    public init(
        name: String, backend: String, summary: String, settingsHelp: [String] = [],
        checkSetting: @escaping @Sendable (String, String) -> String? = { name, _ in "unknown setting '\(name)'" },
        missing: @escaping @Sendable () -> String? = { nil },
        checkQuery: @escaping @Sendable ([Relation]) -> String? = { _ in nil },
        start: @escaping @Sendable (String, EngineSettings) throws -> any BaselineEngine
    ) {
        self.name = name
        self.backend = backend
        self.summary = summary
        self.settingsHelp = settingsHelp
        self.checkSetting = checkSetting
        self.missing = missing
        self.checkQuery = checkQuery
        self.start = start
    }
}

/// An engine's settings as the config gives them: names and values (as written, in order).
public struct EngineSettings: Sendable, Equatable, CustomStringConvertible {
    public let entries: [(name: String, value: String)]

    public init(_ entries: [(name: String, value: String)] = []) { self.entries = entries }

    public subscript(name: String) -> String? { entries.last { $0.name == name }?.value }

    public var isEmpty: Bool { entries.isEmpty }

    public var description: String { entries.map { "\($0.name)=\($0.value)" }.joined(separator: ",") }

    public static func == (a: EngineSettings, b: EngineSettings) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// One baseline as a config or `--engines` names it: a registered kind under a label, with
/// settings. Two baselines of one kind with different settings need different labels.
public struct EngineSpec: Sendable {
    /// The label results carry (the `engine` column of `timings.csv`).
    public let label: String
    public let kind: EngineKind
    public let settings: EngineSettings

    public init(label: String, kind: EngineKind, settings: EngineSettings = EngineSettings()) {
        self.label = label
        self.kind = kind
        self.settings = settings
    }

    /// Starts the engine, or throws `EngineError.missing` with the install hint.
    public func start() throws -> any BaselineEngine {
        if let why = kind.missing() { throw EngineError.missing(engine: kind.name, why) }
        return try kind.start(label, settings)
    }
}
