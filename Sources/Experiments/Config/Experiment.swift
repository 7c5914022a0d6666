import Engines
import QueryEngine
import Workloads

/// A query of an experiment: its name in results and its text.
public struct ExperimentQuery: Sendable {
    public let name: String
    public let text: String
    /// Where the text came from, for parse errors.
    public let origin: String
}

public struct NamedFlagSet: Sendable {
    public let name: String
    public let flags: FlagSet
}

/// A validated experiment: every name resolved, every value in range. Building one from a
/// config does all checks, so a run that starts has nothing left to reject.
public struct Experiment: Sendable {
    public let name: String
    public let description: String
    public let shape: Shape
    /// Dataset sizes, ascending and distinct.
    public let sizes: [Int]
    public let seed: UInt64
    public let parameters: ShapeParameters
    public let backends: [Backend]
    public let queries: [ExperimentQuery]
    public let flagSets: [NamedFlagSet]
    /// The baseline engines (from `EngineRegistry`) under their labels, in config order.
    public let baselines: [EngineSpec]
    public let speedupBaseline: String?
    public let repetitions: Int
    public let warmup: Int
    public let plans: Bool
    /// Optimizer passes skipped by name in every testbed run (config key `disabled-passes`).
    public internal(set) var disabledPasses: [String] = []
    /// The config text exactly as read.
    public let configText: String

    /// Every cell in the canonical order: sizes, then queries, then backends × flag sets,
    /// then the baseline engines. Shards, resume and merge all rely on this order.
    public var cells: [Cell] {
        var out: [Cell] = []
        for rows in sizes {
            for query in queries {
                for backend in backends {
                    for set in flagSets {
                        out.append(Cell(query: query.name, rows: rows, backend: backend.rawValue, engine: Cell.testbedEngine, flagset: set.name))
                    }
                }
                for engine in baselines {
                    out.append(Cell(query: query.name, rows: rows, backend: engine.kind.backend, engine: engine.label, flagset: engine.label))
                }
            }
        }
        return out
    }

    public func flagSet(named name: String) -> NamedFlagSet? { flagSets.first { $0.name == name } }
    public func query(named name: String) -> ExperimentQuery? { queries.first { $0.name == name } }
    public func baseline(named label: String) -> EngineSpec? { baselines.first { $0.label == label } }

    /// The canonical flag string of a cell (empty for baseline engines).
    public func flags(of cell: Cell) -> String {
        cell.engine == Cell.testbedEngine ? (flagSet(named: cell.flagset)?.flags.canonical ?? "") : ""
    }

    public init(
        name: String, description: String, shape: Shape, sizes: [Int], seed: UInt64, parameters: ShapeParameters,
        backends: [Backend], queries: [ExperimentQuery], flagSets: [NamedFlagSet], baselines: [EngineSpec],
        speedupBaseline: String?, repetitions: Int, warmup: Int, plans: Bool, configText: String
    ) {
        self.name = name
        self.description = description
        self.shape = shape
        self.sizes = sizes
        self.seed = seed
        self.parameters = parameters
        self.backends = backends
        self.queries = queries
        self.flagSets = flagSets
        self.baselines = baselines
        self.speedupBaseline = speedupBaseline
        self.repetitions = repetitions
        self.warmup = warmup
        self.plans = plans
        self.configText = configText
    }
}
