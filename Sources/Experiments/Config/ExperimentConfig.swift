/// An experiment config as written in `Workloads/*.yaml` (see the design's contract), before
/// names are checked against the query catalog and the heuristics. Every section rejects
/// keys it does not know.
public struct ExperimentConfig: Decodable {
    public let name: String
    public let description: String?
    public let dataset: DatasetSection
    public let backends: [String]
    public let queries: [QueryEntry]
    public let flagsets: [(name: String, value: FlagSetEntry)]
    public let baselines: [BaselineEntry]
    /// The flag set speedups are measured against (default: `all-off` if present, else the first).
    public let baseline: String?
    public let repetitions: Int
    public let warmup: Int
    public let plans: Bool
    /// Optimizer passes skipped by name in every testbed run (`disabled-passes: [NAME, …]`).
    public let disabledPasses: [String]
    /// A change stream run through every cell (`changes:`), and how outputs follow it (`modes:`).
    public let changes: ChangesSection?
    public let modes: [String]?

    static let keys = [
        "name", "description", "dataset", "backend", "queries", "flagsets", "baselines", "baseline",
        "repetitions", "warmup", "plans", "disabled-passes", "changes", "modes",
    ]

    enum CodingKeys: String, CodingKey {
        case name, description, dataset, backend, queries, flagsets, baselines, baseline, repetitions, warmup, plans
        case disabledPasses = "disabled-passes"
        case changes, modes
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: Self.keys, section: "the experiment")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        dataset = try c.decode(DatasetSection.self, forKey: .dataset)
        backends = try c.decodeIfPresent(OneOrMany<String>.self, forKey: .backend)?.items ?? ["memory"]
        queries = try c.decode([QueryEntry].self, forKey: .queries)
        flagsets = try c.decodeIfPresent(OrderedMapping<FlagSetEntry>.self, forKey: .flagsets)?.entries ?? []
        baselines = try c.decodeIfPresent(OneOrMany<BaselineEntry>.self, forKey: .baselines)?.items ?? []
        baseline = try c.decodeIfPresent(String.self, forKey: .baseline)
        changes = try c.decodeIfPresent(ChangesSection.self, forKey: .changes)
        modes = try c.decodeIfPresent(OneOrMany<String>.self, forKey: .modes)?.items
        // Change experiments run each repetition as one replay of the whole stream; one is the default.
        repetitions = try c.decodeIfPresent(Int.self, forKey: .repetitions) ?? (changes == nil ? 5 : 1)
        warmup = try c.decodeIfPresent(Int.self, forKey: .warmup) ?? (changes == nil ? 1 : 0)
        plans = try c.decodeIfPresent(Bool.self, forKey: .plans) ?? false
        disabledPasses = try c.decodeIfPresent(OneOrMany<String>.self, forKey: .disabledPasses)?.items ?? []
    }
}

/// `changes:` — a generated session or a change script, how many transactions, and the
/// session's seed and parameters.
public struct ChangesSection: Decodable {
    public let session: String?
    public let script: String?
    public let transactions: Int?
    public let seed: UInt64
    public let params: [(key: String, value: String)]
    /// The sort key of the modes `ordered` and `regenerate-sort-diff`.
    public let orderedBy: [String]?

    static let keys = ["session", "script", "transactions", "seed", "params", "ordered-by"]
    enum CodingKeys: String, CodingKey {
        case session, script, transactions, seed, params
        case orderedBy = "ordered-by"
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: Self.keys, section: "changes")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        session = try c.decodeIfPresent(String.self, forKey: .session)
        script = try c.decodeIfPresent(String.self, forKey: .script)
        transactions = try c.decodeIfPresent(Int.self, forKey: .transactions)
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 1
        params = try c.decodeIfPresent(OrderedMapping<String>.self, forKey: .params)?.entries.map { ($0.name, $0.value) } ?? []
        orderedBy = try c.decodeIfPresent(OneOrMany<String>.self, forKey: .orderedBy)?.items
        if session != nil && script != nil {
            throw ConfigIssue(codingPath: decoder.codingPath + [AnyKey(stringValue: "script")],
                              "give either session or script, not both")
        }
        if session == nil && script == nil {
            throw ConfigIssue(codingPath: decoder.codingPath,
                              "expected 'session: NAME' (a generated stream) or 'script: PATH.changes'")
        }
        if script != nil && !params.isEmpty {
            throw ConfigIssue(codingPath: decoder.codingPath + [AnyKey(stringValue: "params")],
                              "params are a generated session's; a script takes none")
        }
        if script != nil && c.contains(.seed) {
            throw ConfigIssue(codingPath: decoder.codingPath + [AnyKey(stringValue: "seed")],
                              "seed seeds a generated session; a script's transactions are written out, so it takes none")
        }
    }
}

/// `dataset:` — shape, sizes, seed and shape parameters.
public struct DatasetSection: Decodable {
    public let shape: String
    public let rows: [Int]
    public let seed: UInt64
    public let params: [(key: String, value: String)]

    enum CodingKeys: String, CodingKey { case shape, rows, seed, params }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: ["shape", "rows", "seed", "params"], section: "dataset")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        shape = try c.decode(String.self, forKey: .shape)
        rows = try c.decode(OneOrMany<Int>.self, forKey: .rows).items
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 42
        params = try c.decodeIfPresent(OrderedMapping<String>.self, forKey: .params)?.entries.map { ($0.name, $0.value) } ?? []
    }
}

/// One entry of `queries:` — a catalog name, or `{name, text}` for an inline query, or
/// `{name, file}` for a query file.
public struct QueryEntry: Decodable {
    public let name: String
    public let text: String?
    public let file: String?

    enum CodingKeys: String, CodingKey { case name, text, file }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            self.name = name
            text = nil
            file = nil
            return
        }
        try StrictKeys.check(decoder, allowed: ["name", "text", "file"], section: "a query entry")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        text = try c.decodeIfPresent(String.self, forKey: .text)
        file = try c.decodeIfPresent(String.self, forKey: .file)
        if text != nil && file != nil {
            throw ConfigIssue(codingPath: decoder.codingPath, "give either text or file, not both")
        }
    }
}

/// One flag set: a preset adjusted by `enable`, `disable` and `set`, as on the command line.
public struct FlagSetEntry: Decodable {
    public let preset: String
    public let enable: [String]
    public let disable: [String]
    public let set: [(name: String, value: String)]

    enum CodingKeys: String, CodingKey { case preset, enable, disable, set }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: ["preset", "enable", "disable", "set"], section: "a flag set")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        preset = try c.decodeIfPresent(String.self, forKey: .preset) ?? "all-on"
        enable = try c.decodeIfPresent(OneOrMany<String>.self, forKey: .enable)?.items ?? []
        disable = try c.decodeIfPresent(OneOrMany<String>.self, forKey: .disable)?.items ?? []
        set = try c.decodeIfPresent(OrderedMapping<String>.self, forKey: .set)?.entries ?? []
    }
}

/// One entry of `baselines:` — a registered engine name, or `{engine: NAME, name: LABEL,
/// settings: {...}}` (label defaults to the engine's name; settings are the engine's own,
/// e.g. DuckDB's `threads`, PostgreSQL's `enable_hashjoin`).
public struct BaselineEntry: Decodable {
    public let engine: String
    public let name: String?
    public let settings: [(name: String, value: String)]

    enum CodingKeys: String, CodingKey { case engine, name, settings }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            engine = name
            self.name = nil
            settings = []
            return
        }
        try StrictKeys.check(decoder, allowed: ["engine", "name", "settings"], section: "a baseline entry")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        engine = try c.decode(String.self, forKey: .engine)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        settings = try c.decodeIfPresent(OrderedMapping<String>.self, forKey: .settings)?.entries ?? []
    }

    /// The label the baseline runs under.
    public var label: String { name ?? engine }
}
