import Engines
import FileSupport
import QueryEngine
import Workloads

/// The cells an experiment runs, for checking rows read back from its result files
/// (resume, merge, compare): a row of another config, or edited by hand, is refused at its
/// line, naming the part that does not belong, instead of being merged or compared.
struct ResultMatrix {
    let experiment: Experiment
    private let cells: Set<Cell>

    init(_ experiment: Experiment) {
        self.experiment = experiment
        self.cells = Set(experiment.cells)
    }

    /// Checks a row read back; returns its flags as the config's flag set has them now
    /// (`StoredFlags`: a file written before a later heuristic existed lacks its name).
    @discardableResult
    func check(_ cell: Cell, experiment name: String, shape: String, seed: UInt64, flags: String, at record: CSVRecord) throws -> String {
        if name != experiment.name {
            throw record.failure("experiment", "the config's experiment is '\(experiment.name)'")
        }
        if shape != experiment.shape.rawValue { throw record.failure("shape", "the config's shape is \(experiment.shape.rawValue)") }
        if seed != experiment.seed { throw record.failure("seed", "the config's seed is \(experiment.seed)") }
        guard !cells.contains(cell) else {
            let expected = experiment.flags(of: cell)
            if flags == expected { return flags }
            guard !expected.isEmpty else { throw record.failure("flags", "a SQLite engine's row has no flags") }
            let reconciled: String?
            do { reconciled = try StoredFlags.reconciled(flags, expected: expected) } catch {
                throw record.failure("flags", "\(error)")
            }
            guard let reconciled else { throw record.failure("flags", "flag set '\(cell.flagset)' runs with \(expected)") }
            return reconciled
        }
        throw outside(cell, record)
    }

    /// Which column puts `cell` outside the matrix.
    private func outside(_ cell: Cell, _ record: CSVRecord) -> ExperimentFailure {
        func list(_ items: [String]) -> String { items.joined(separator: ", ") }
        if experiment.query(named: cell.query) == nil {
            return record.failure("query", "the config's queries are \(list(experiment.queries.map(\.name)))")
        }
        if !experiment.sizes.contains(cell.rows) {
            return record.failure("rows", "the config's sizes are \(list(experiment.sizes.map(String.init)))")
        }
        if cell.isTestbed {
            let modes = experiment.changes?.modes.map(\.rawValue) ?? [""]
            if !modes.contains(cell.mode) {
                return record.failure("mode", modes == [""] ? "the config has no changes, so no modes"
                    : "the config's modes are \(list(modes))")
            }
            if !experiment.backends.contains(where: { $0.rawValue == cell.backend }) {
                return record.failure("backend", "the config's backends are \(list(experiment.backends.map(\.rawValue)))")
            }
            return record.failure("flagset", "the config's flag sets are \(list(experiment.flagSets.map(\.name)))")
        }
        let engines = [Cell.testbedEngine] + experiment.baselines.map(\.label)
        if !engines.contains(cell.engine) { return record.failure("engine", "expected one of \(list(engines))") }
        return .usage("\(record.place): \(cell) is not a cell of the config's matrix")
    }
}

extension ResultMatrix {
    /// Without the config: the engine, backend and flags must at least be ones this testbed has.
    static func checkNames(_ cell: Cell, flags: String, at record: CSVRecord) throws {
        guard cell.isTestbed else {
            // A baseline's label is the config's to choose; its backend is a registered engine's.
            if let problem = OutputLocation.validateName(cell.engine) { throw record.failure("engine", problem) }
            let backends = Array(Set(EngineRegistry.kinds.map(\.backend))).sorted()
            guard backends.contains(cell.backend) else {
                // Neither the testbed nor a baseline: the engine is what is unknown.
                throw record.failure("engine", "expected testbed, or a baseline engine (whose backend is one of \(backends.joined(separator: ", ")))")
            }
            return
        }
        guard Backend(rawValue: cell.backend) != nil else {
            throw record.failure("backend", "expected one of \(Backend.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        do { _ = try HeuristicCatalog.standard.parseCanonical(flags) } catch {
            throw record.failure("flags", "\(error)")
        }
    }
}
