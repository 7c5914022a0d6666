import QueryEngine
import Workloads

/// A case together with the engine configuration under which it fails.
public struct FailingCase {
    public var graph: CaseGraph
    public var flags: FlagSet
    public var backend: Backend
    /// Rows the engine pulls from a source per step.
    public var batchSize: Int
    /// The first disagreement seen for this configuration.
    public var mismatch: Mismatch

    public init(graph: CaseGraph, flags: FlagSet, backend: Backend, batchSize: Int = CaseChecker.defaultBatchSize,
                mismatch: Mismatch) {
        self.graph = graph
        self.flags = flags
        self.backend = backend
        self.batchSize = batchSize
        self.mismatch = mismatch
    }
}

/// Re-checks candidates during reduction: a candidate still fails when it builds and shows a
/// disagreement of the same blame (engine, or oracles) as the original.
struct FailureTest {
    let catalog: HeuristicCatalog
    let blamesEngine: Bool
    /// The baseline engines a `baseline` disagreement is checked with again (nil otherwise).
    let baselines: BaselineOracles?
    private(set) var checks = 0

    init(catalog: HeuristicCatalog, blamesEngine: Bool, baselines: BaselineOracles? = nil) {
        self.catalog = catalog
        self.blamesEngine = blamesEngine
        self.baselines = baselines
    }

    mutating func failure(_ graph: CaseGraph, _ flags: FlagSet, _ backend: Backend, _ batchSize: Int) -> Mismatch? {
        checks += 1
        guard !graph.outputs.isEmpty, let checker = try? CaseChecker(graph, catalog: catalog, baselines: baselines) else { return nil }
        if blamesEngine {
            return checker.check(flags: flags, backend: backend, batchSize: batchSize).first { $0.kind.blamesEngine }
        }
        if baselines != nil { return checker.baselineMismatches().first }
        return checker.oracleMismatches().first
    }
}
