import Engines
import QueryEngine
import Relational
import SQLiteStore
import Workloads

/// Checks a decoded config against the query catalog, the heuristics and the generators,
/// and builds the `Experiment`. Every error names the key path of the mistake.
public struct ExperimentResolver {
    public let file: String
    public let catalogDirectory: String?
    public let heuristics: HeuristicCatalog

    public init(file: String, catalogDirectory: String? = nil, heuristics: HeuristicCatalog = .standard) {
        self.file = file
        self.catalogDirectory = catalogDirectory
        self.heuristics = heuristics
    }

    /// Loads, decodes and resolves the config at `path`.
    public static func load(path: String, catalogDirectory: String? = nil) throws -> Experiment {
        let (config, text) = try ConfigLoader.load(path: path)
        return try ExperimentResolver(file: path, catalogDirectory: catalogDirectory).resolve(config, text: text)
    }

    /// Resolves config text (for tests and `merge`, which reads a run's `config.yaml`).
    public static func resolve(text: String, file: String, catalogDirectory: String? = nil) throws -> Experiment {
        let config = try ConfigLoader.decode(text, file: file)
        return try ExperimentResolver(file: file, catalogDirectory: catalogDirectory).resolve(config, text: text)
    }

    public func resolve(_ config: ExperimentConfig, text: String) throws -> Experiment {
        let root = try? composeYAML(text)
        func fail(_ path: [String], _ message: String) -> ConfigError {
            if let root { return ConfigLoader.located(path, message, in: root, file: file) }
            return ConfigError(file: file, keyPath: ConfigIssue.render(path), message: message)
        }

        if let problem = OutputLocation.validateName(config.name) { throw fail(["name"], problem) }

        let shape: Shape
        do { shape = try Shape.named(config.dataset.shape) } catch { throw fail(["dataset", "shape"], "\(error)") }

        guard !config.dataset.rows.isEmpty else { throw fail(["dataset", "rows"], "expected at least one size") }
        for (i, rows) in config.dataset.rows.enumerated() where rows < 1 {
            throw fail(["dataset", "rows", "[\(i)]"], "size \(rows) is not valid; expected an integer >= 1")
        }
        for (i, rows) in config.dataset.rows.enumerated() {
            if let first = config.dataset.rows.firstIndex(of: rows), first < i {
                throw fail(["dataset", "rows", "[\(i)]"], "size \(rows) is listed twice (also [\(first)]); give each size once")
            }
        }
        let sizes = config.dataset.rows.sorted()

        var assignments: [String: String] = [:]
        for (key, value) in config.dataset.params {
            guard shape.parameterNames.contains(key) else {
                let hint = closestMatch(to: key, among: shape.parameterNames).map { "; did you mean '\($0)'?" } ?? ""
                throw fail(["dataset", "params", key],
                    "unknown parameter '\(key)' for shape \(shape)\(hint) (known: \(shape.parameterNames.joined(separator: ", ")))")
            }
            assignments[key] = value
        }
        let parameters = ShapeParameters(assignments)
        // Every size with these parameters, checked without generating (a size over the cap
        // must fail here, before any output directory exists). A parameter's error stands at
        // that parameter, a size's at the size.
        for (i, rows) in config.dataset.rows.enumerated() {
            do { try shape.validate(rows: rows, parameters: parameters) } catch {
                throw fail(Self.datasetPath(of: error, size: i, parameters: assignments), "\(error)")
            }
        }
        // Queries are parsed against a one-row dataset of the shape: checking query text
        // needs only the schemes, and generating the smallest size could take gigabytes.
        let relations: RelationCatalog
        do { relations = try shape.parsingProbe() } catch { throw fail(["dataset"], "\(error)") }

        guard !config.backends.isEmpty else { throw fail(["backend"], "expected at least one backend (\(Backend.namesText))") }
        var backends: [Backend] = []
        for (i, name) in config.backends.enumerated() {
            guard let backend = Backend(rawValue: name) else {
                throw fail(["backend"] + (config.backends.count > 1 ? ["[\(i)]"] : []),
                    "unknown backend '\(name)'" + hint(name, Backend.allCases.map(\.rawValue)) + "; expected \(Backend.namesText)")
            }
            if backends.contains(backend) { throw fail(["backend", "[\(i)]"], "'\(name)' is listed twice") }
            backends.append(backend)
        }

        let baselines = try resolveBaselines(config, fail: fail)

        let flagSets = try config.flagsets.map { entry -> NamedFlagSet in
            let path = ["flagsets", entry.name]
            if let problem = OutputLocation.validateName(entry.name) { throw fail(path, "flag set name: \(problem)") }
            if EngineRegistry.kind(named: entry.name) != nil || baselines.contains(where: { $0.label == entry.name }) {
                throw fail(path, "'\(entry.name)' names a baseline engine; choose another flag-set name")
            }
            let set = entry.value
            do {
                for name in set.enable + set.disable { _ = try heuristics.spec(named: name) }
                for (name, _) in set.set { _ = try heuristics.spec(named: name) }
            } catch let error as FlagError {
                throw fail(path + which(error, set), "\(error)")
            }
            do {
                let flags = try heuristics.flagSet(
                    preset: set.preset, enable: set.enable, disable: set.disable,
                    set: Dictionary(set.set.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }))
                return NamedFlagSet(name: entry.name, flags: flags)
            } catch let error as FlagError {
                throw fail(path + which(error, set), message(error, set))
            }
        }

        let sql = baselines.contains { $0.kind.backend == "sqlite" } ? try scratchDatabase(fail) : nil
        let queries = try resolveQueries(config, shape: shape, relations: relations, sql: sql, baselines: baselines, fail: fail) { path, error in
            // An inline query's error stands where the query text stands in the YAML file.
            guard let root, let error = error as? QueryError,
                  let node = NodeLocator.node(at: path, in: root),
                  let at = NodeLocator.position(line: error.line, column: error.column, inScalar: node, text: text) else {
                return fail(path, "\(error)")
            }
            return ConfigError(file: file, keyPath: ConfigIssue.render(path), line: at.line, column: at.column, message: error.message)
        }

        if flagSets.isEmpty && baselines.isEmpty {
            throw fail(["flagsets"], "the matrix is empty: give at least one flag set (or a baseline engine)")
        }
        if let problem = ExperimentLimits.check(config.repetitions, in: ExperimentLimits.repetitions) {
            throw fail(["repetitions"], problem)
        }
        if let problem = ExperimentLimits.check(config.warmup, in: ExperimentLimits.warmup) { throw fail(["warmup"], problem) }
        let changes = try resolveChanges(config, shape: shape, relations: relations, queries: queries, fail: fail)
        let modeCount = changes?.modes.count ?? 1
        let cellCount = sizes.count * queries.count * (backends.count * flagSets.count * modeCount + baselines.count)
        // A change cell's run is a replay of the stream: each transaction counts as a run.
        let runsPerRepetition = changes?.transactions ?? 1
        if let problem = ExperimentLimits.checkTotal(
            cells: cellCount * runsPerRepetition, repetitions: config.repetitions, warmup: config.warmup) {
            throw fail(["repetitions"], problem)
        }

        var speedupBaseline = config.baseline
        if let name = speedupBaseline {
            guard flagSets.contains(where: { $0.name == name }) else {
                throw fail(["baseline"], "no flag set named '\(name)'" + hint(name, flagSets.map(\.name)))
            }
        } else {
            speedupBaseline = flagSets.first { $0.name == "all-off" }?.name ?? flagSets.first?.name
        }

        for (i, name) in config.disabledPasses.enumerated() {
            do { try heuristics.checkPassNames([name]) } catch {
                throw fail(["disabled-passes", "[\(i)]"], "\(error)")
            }
            if let first = config.disabledPasses[..<i].firstIndex(of: name) {
                throw fail(["disabled-passes", "[\(i)]"], "'\(name)' is listed twice (also [\(first)]); give each pass once")
            }
        }

        var experiment = Experiment(
            name: config.name, description: config.description ?? "", shape: shape, sizes: sizes,
            seed: config.dataset.seed, parameters: parameters, backends: backends, queries: queries,
            flagSets: flagSets, baselines: baselines, speedupBaseline: speedupBaseline,
            repetitions: config.repetitions, warmup: config.warmup, plans: config.plans, configText: text)
        experiment.disabledPasses = config.disabledPasses
        experiment.changes = changes
        return experiment
    }

    private func resolveQueries(
        _ config: ExperimentConfig, shape: Shape, relations: RelationCatalog, sql: SQLiteDatabase?, baselines: [EngineSpec],
        fail: ([String], String) -> ConfigError,
        inlineFailure: ([String], any Error) -> ConfigError
    ) throws -> [ExperimentQuery] {
        guard !config.queries.isEmpty else { throw fail(["queries"], "expected at least one query") }
        var out: [ExperimentQuery] = []
        for (i, entry) in config.queries.enumerated() {
            let path = ["queries", "[\(i)]"]
            if let problem = OutputLocation.validateName(entry.name) { throw fail(path, "query name: \(problem)") }
            guard !out.contains(where: { $0.name == entry.name }) else { throw fail(path, "query '\(entry.name)' is listed twice") }
            let query: ExperimentQuery
            if let text = entry.text {
                let origin = "\(file) \(ConfigIssue.render(path))"
                // Its `# shape:` line is read as a catalog file's is: a query written for
                // another shape names relations this dataset lacks.
                let header: CatalogQuery
                do { header = try CatalogQuery(name: entry.name, text: text, path: origin) } catch {
                    throw inlineFailure(path + ["text"], error)
                }
                if let needed = header.shape, needed != shape {
                    throw fail(path + ["text"], "query '\(entry.name)' needs shape \(needed) (its `# shape:` line), but dataset.shape is \(shape)")
                }
                query = ExperimentQuery(name: entry.name, text: text, origin: origin)
            } else {
                let found: CatalogQuery
                do { found = try QueryCatalog.find(entry.file ?? entry.name, directory: catalogDirectory) } catch {
                    throw fail(path + (entry.file == nil ? [] : ["file"]), "\(error)")
                }
                if let needed = found.shape, needed != shape {
                    throw fail(path, "query '\(entry.name)' (\(found.path)) needs shape \(needed), but dataset.shape is \(shape)")
                }
                query = ExperimentQuery(name: entry.name, text: found.text, origin: found.path)
            }
            let parsed: Query
            do { parsed = try Query.parse(query.text, catalog: relations, file: query.origin) } catch {
                throw entry.text == nil ? fail(path, "\(error)") : inlineFailure(path + ["text"], error)
            }
            if let sql, let problem = BaselineSQLCheck.problem(parsed, database: sql) {
                throw fail(path + (entry.text == nil ? [] : ["text"]), "query '\(entry.name)': \(problem)")
            }
            for baseline in baselines {
                guard let problem = baseline.kind.checkQuery(parsed.relations) else { continue }
                throw fail(path + (entry.text == nil ? [] : ["text"]),
                    "query '\(entry.name)': baseline \(baseline.label): \(problem); remove the baseline or change the query")
            }
            out.append(query)
        }
        return out
    }

    /// `baselines:` entries as registered engines under distinct labels, settings checked by
    /// each engine. (Whether the engine is installed is checked only by `run`.)
    private func resolveBaselines(_ config: ExperimentConfig, fail: ([String], String) -> ConfigError) throws -> [EngineSpec] {
        var out: [EngineSpec] = []
        for (i, entry) in config.baselines.enumerated() {
            let path = ["baselines", "[\(i)]"]
            guard let kind = EngineRegistry.kind(named: entry.engine) else {
                throw fail(path + (entry.name == nil && entry.settings.isEmpty ? [] : ["engine"]),
                    "unknown baseline engine '\(entry.engine)'" + hint(entry.engine, EngineRegistry.names)
                    + "; expected one of: " + EngineRegistry.names.joined(separator: ", "))
            }
            if let problem = OutputLocation.validateName(entry.label) { throw fail(path + ["name"], "baseline name: \(problem)") }
            if entry.label == Cell.testbedEngine {
                throw fail(path + ["name"], "'\(entry.label)' is the testbed's own engine; choose another name")
            }
            // Figures labelled with another engine's name would read as that engine's.
            if let other = EngineRegistry.kind(named: entry.label), other.name != kind.name {
                throw fail(path + ["name"], "'\(entry.label)' is the name of engine \(other.name), but this baseline runs "
                    + "\(kind.name); choose another name")
            }
            for setting in entry.settings {
                if let problem = kind.checkSetting(setting.name, setting.value) {
                    let known = kind.settingsHelp.isEmpty ? " (\(kind.name) takes no settings)" : " (\(kind.name) settings: \(kind.settingsHelp.joined(separator: "; ")))"
                    throw fail(path + ["settings", setting.name], problem + known)
                }
            }
            let spec = EngineSpec(label: entry.label, kind: kind, settings: EngineSettings(entry.settings))
            if let same = out.first(where: { $0.label == spec.label }) {
                // Refused like a backend, query or size listed twice (the plain form was once
                // dropped without a word).
                let sameEngine = same.kind.name == kind.name && same.settings == spec.settings && entry.name == nil
                throw fail(path, "baseline '\(spec.label)' is listed twice; "
                    + (sameEngine ? "list it once" : "give each a distinct name: LABEL"))
            }
            out.append(spec)
        }
        return out
    }

    /// The database `BaselineSQLCheck` prepares statements in.
    private func scratchDatabase(_ fail: ([String], String) -> ConfigError) throws -> SQLiteDatabase {
        do { return try SQLiteDatabase.inMemory() } catch { throw fail(["baselines"], "cannot open SQLite to check the queries: \(error)") }
    }

    /// Where a dataset error belongs: a parameter the config gives (`dataset.params.NAME`),
    /// the parameters together when the error names none of them, or the size.
    static func datasetPath(of error: any Error, size: Int, parameters: [String: String]) -> [String] {
        let sizePath = ["dataset", "rows", "[\(size)]"]
        guard let error = error as? WorkloadError else { return sizePath }
        // Matched case by case (not one exhaustive switch): any other kind of error is the size's.
        var named: String?
        if case let .badParameter(name, _, _) = error { named = name }
        if case let .outOfRange(name, _, _, _) = error { named = name }
        if case let .unknownParameter(name, _, _, _) = error { named = name }
        if let named, parameters[named] != nil { return ["dataset", "params", named] }
        if case .impossible = error, !parameters.isEmpty { return ["dataset", "params"] }
        return sizePath
    }

    private func hint(_ name: String, _ options: [String]) -> String {
        closestMatch(to: name, among: options).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The flag-set key an error comes from, so the key path points at it.
    private func which(_ error: FlagError, _ set: FlagSetEntry) -> [String] {
        switch error {
        case .unknownPreset: return ["preset"]
        case let .enabledAndDisabled(name):
            return set.disable.firstIndex(of: name).map { ["disable", "[\($0)]"] } ?? ["disable"]
        case let .unknownFlag(name, _), let .notToggle(name), let .badValue(name, _, _):
            if let i = set.enable.firstIndex(of: name) { return ["enable", "[\(i)]"] }
            if let i = set.disable.firstIndex(of: name) { return ["disable", "[\(i)]"] }
            return set.set.contains { $0.name == name } ? ["set", name] : ["preset"]
        case let .setAndToggled(name, _, _): return ["set", name]
        case .malformedAssignment, .assignedTwice: return ["set"]
        }
    }

    /// The flag error's message; one both enabled and disabled also names its enable entry.
    private func message(_ error: FlagError, _ set: FlagSetEntry) -> String {
        guard case let .enabledAndDisabled(name) = error, let j = set.enable.firstIndex(of: name) else { return "\(error)" }
        return "'\(name)' is in both enable (enable[\(j)]) and disable; name each heuristic in one of them"
    }
}
