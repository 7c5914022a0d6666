import Engines
import Relational
import Workloads

/// Baseline engines from the registry as further oracles (`testbed verify --engines`): each
/// is started once per verification run, loads each case's tables, and runs the case's
/// outputs as SQL. A case an engine cannot hold (a column mixing text and numbers, for a
/// dialect with typed columns) is refused by that engine and counted, not a disagreement.
///
/// `sqlite` is the oracle every case already has (`CaseChecker`), so naming it adds nothing.
public final class BaselineOracles {
    /// What one engine made of one case.
    public enum Outcome {
        case rows([[Row]])
        /// The engine cannot hold or express this case (why).
        case unsupported(String)
        /// The engine failed (its error).
        case failed(String)
    }

    public let specs: [EngineSpec]
    private var running: [(label: String, engine: any BaselineEngine)] = []
    /// Cases each engine refused as unsupported, by label.
    public private(set) var refused: [String: Int] = [:]
    /// Why each engine last refused a case, by label (a replayed repro reports it: a
    /// refused case is not compared, so "0 mismatches" alone would overstate it).
    public private(set) var lastRefusal: [String: String] = [:]
    /// Cases each engine ran, by label.
    public private(set) var ran: [String: Int] = [:]

    /// Starts every engine of `specs` except the built-in `sqlite` oracle; throws (with the
    /// install hint) when one is missing, after stopping those already started.
    public init(_ specs: [EngineSpec]) throws {
        self.specs = specs.filter { $0.kind.name != SQLiteEngine.plain.name }
        do {
            for spec in self.specs { running.append((spec.label, try spec.start())) }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    public var isEmpty: Bool { running.isEmpty }
    public var labels: [String] { running.map(\.label) }

    public func stop() {
        for (_, engine) in running { engine.stop() }
        running.removeAll()
    }

    /// Each engine's outputs for `graph`, in engine order.
    public func outcomes(for graph: CaseGraph) -> [(label: String, outcome: Outcome)] {
        var out: [(String, Outcome)] = []
        for (label, engine) in running {
            let outcome = Self.outcome(engine, graph)
            switch outcome {
            case let .unsupported(why):
                refused[label, default: 0] += 1
                lastRefusal[label] = why
            case .rows, .failed: ran[label, default: 0] += 1
            }
            out.append((label, outcome))
        }
        return out
    }

    private static func outcome(_ engine: any BaselineEngine, _ graph: CaseGraph) -> Outcome {
        do {
            // No SQL table is without columns: a table of no attributes (a literal `relation []
            // { () }`) stays a memory table, which every SQL translation inlines as a literal.
            let tables = try graph.tables.filter { !$0.scheme.attributes.isEmpty }.map {
                try DatasetTable(name: $0.name, scheme: $0.scheme, rows: $0.rows, indexedAttributes: $0.indexedAttributes)
            }
            let catalog = tables.isEmpty ? RelationCatalog() : try engine.load(tables)
            let sources = try graph.tables.map { table -> Relation in
                if table.scheme.attributes.isEmpty {
                    let literal = try MemoryTable(name: table.name, scheme: table.scheme)
                    try literal.add(contentsOf: table.rows)
                    return Relation(source: literal)
                }
                guard let relation = catalog[table.name] else {
                    throw EngineError.failed(engine: engine.label, "table \(table.name) was not loaded")
                }
                return relation
            }
            let outputs = try graph.relations(over: sources)
            return .rows(try engine.run(try engine.prepare(outputs)).results)
        } catch let error as EngineError {
            if case let .unsupported(_, why) = error { return .unsupported(why) }
            return .failed("\(error)")
        } catch {
            return .failed("\(error)")
        }
    }
}
