import Engines
import Workloads

/// What running an experiment asks of this machine, as opposed to what the config says:
/// whether each size's dataset, held in every place its cells load it, fits in the memory
/// available now. Only `run` (and `--resume`) checks it, before writing anything; `merge`
/// and `compare` resolve the same config on whatever machine gathers the results, and must
/// not refuse a run made elsewhere.
public enum MachineCheck {
    /// Throws a `ConfigError` at the size in `dataset.rows` whose data would not fit:
    /// the generated dataset plus, per size, what loading it adds for each place the
    /// cells read it (memory tables, a SQLite database, a second one analyzed).
    public static func checkMemory(_ experiment: Experiment, cells: [Cell], file: String, memory: MachineMemory = .current()) throws {
        let shape = experiment.shape, parameters = experiment.parameters
        for rows in Set(cells.map(\.rows)).sorted() {
            let here = cells.filter { $0.rows == rows }
            var places: [(name: String, use: DatasetUse)] = []
            if here.contains(where: { $0.isTestbed && $0.backend == Backend.memory.rawValue }) {
                places.append(("memory", .load(.memory)))
            }
            if here.contains(where: { $0.isTestbed && $0.backend == Backend.sqlite.rawValue }) {
                places.append(("sqlite", .load(.sqlite)))
            }
            for backend in Backend.allCases where backend.plistLayout != nil {
                if here.contains(where: { $0.isTestbed && $0.backend == backend.rawValue }) {
                    places.append((backend.rawValue, .load(backend)))
                }
            }
            // Each baseline loads its own copy; engines in other processes are estimated as a
            // SQLite load (their memory is this machine's too).
            for engine in experiment.baselines where here.contains(where: { $0.engine == engine.label }) {
                if !places.contains(where: { $0.name == engine.label }) { places.append((engine.label, .load(.sqlite))) }
            }
            let generated = try shape.estimatedMemory(rows: rows, parameters: parameters, use: .generate)
            var estimate = generated
            for place in places {
                estimate += try shape.estimatedMemory(rows: rows, parameters: parameters, use: place.use) - generated
            }
            guard estimate > memory.availableBytes else { continue }
            let params = parameters.description
            let activity = "running \(shape) with \(rows) rows" + (params.isEmpty ? "" : " (\(params))")
                + (places.isEmpty ? "" : " loaded into " + places.map(\.name).joined(separator: ", "))
            let problem = WorkloadError.insufficientMemory(
                activity: activity, estimate: estimate, memory: memory,
                hint: "use fewer rows or smaller parameters, or run this size as its own shard on a larger machine")
            throw located(rows: rows, message: "\(problem)", experiment: experiment, file: file)
        }
    }

    /// Throws a `ConfigError` at the first baseline whose engine is not installed here, with
    /// the engine's install hint (only `run` checks this: a run made elsewhere merges anywhere).
    public static func checkEngines(_ experiment: Experiment, cells: [Cell], file: String) throws {
        for (i, engine) in experiment.baselines.enumerated() where cells.contains(where: { $0.engine == engine.label }) {
            guard let why = engine.kind.missing() else { continue }
            let message = "baseline \(engine.label): engine \(engine.kind.name) is not available: \(why)"
            guard let root = try? composeYAML(experiment.configText) else {
                throw ConfigError(file: file, keyPath: "baselines[\(i)]", message: message)
            }
            throw ConfigLoader.located(["baselines", "[\(i)]"], message, in: root, file: file)
        }
        try checkEngineSettings(experiment, cells: cells, file: file)
    }

    /// Starts each baseline that has `settings` once with them and stops it: the engine is
    /// what knows its settings (a DuckDB optimizer's name, a PostgreSQL parameter's range),
    /// and it started only after the testbed's own cells had run, ending the run with exit 1
    /// and a `failed` run. A start takes a second or so (PostgreSQL's several), paid only
    /// when settings are given.
    private static func checkEngineSettings(_ experiment: Experiment, cells: [Cell], file: String) throws {
        for (i, engine) in experiment.baselines.enumerated()
        where !engine.settings.isEmpty && cells.contains(where: { $0.engine == engine.label }) {
            do {
                let running = try engine.start()
                running.stop()
            } catch let error as EngineError {
                let message = "baseline \(engine.label): engine \(engine.kind.name) did not start with these settings: \(error)"
                guard let root = try? composeYAML(experiment.configText) else {
                    throw ConfigError(file: file, keyPath: "baselines[\(i)].settings", message: message)
                }
                throw ConfigLoader.located(["baselines", "[\(i)]", "settings"], message, in: root, file: file)
            }
        }
    }

    /// The error at the entry of `dataset.rows` that asks for `rows`.
    private static func located(rows: Int, message: String, experiment: Experiment, file: String) -> ConfigError {
        guard let root = try? composeYAML(experiment.configText) else {
            return ConfigError(file: file, keyPath: "dataset.rows", message: message)
        }
        var path = ["dataset", "rows"]
        if case let .sequence(sizes)? = NodeLocator.node(at: path, in: root),
           let i = sizes.firstIndex(where: { $0.string.flatMap { Int($0) } == rows }) {
            path.append("[\(i)]")
        }
        return ConfigLoader.located(path, message, in: root, file: file)
    }
}
