/// Runs passes in order. The pipeline, not the passes, owns toggling (a pass whose name is
/// in `disabledPasses` is skipped), timing, and validation of the graph after every pass
/// (in the manner of DuckDB's `RunOptimizer`).
public struct OptimizerPipeline {
    public let passes: [any OptimizerPass]
    public let disabledPasses: Set<String>

    public init(passes: [any OptimizerPass], disabledPasses: Set<String> = []) {
        self.passes = passes
        self.disabledPasses = disabledPasses
    }

    public func run(_ graph: inout PlanGraph) throws -> [PassReport] {
        var reports: [PassReport] = []
        for pass in passes where !disabledPasses.contains(pass.name) {
            let clock = ContinuousClock()
            var changes = 0
            let elapsed = clock.measure { changes = pass.run(&graph) }
            try graph.validate(after: "pass \(pass.name)")
            reports.append(PassReport(name: pass.name, changes: changes, microseconds: elapsed.microseconds))
        }
        return reports
    }
}

extension Duration {
    /// The duration in microseconds, as a Double.
    public var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000_000 + Double(attoseconds) / 1_000_000_000_000
    }
}
