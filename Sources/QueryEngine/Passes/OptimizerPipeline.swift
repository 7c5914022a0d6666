/// Runs passes in order. The pipeline, not the passes, owns toggling (a pass whose name is
/// in `disabledPasses` is skipped), timing, and validation of the graph before the first
/// pass and after every pass (in the manner of DuckDB's `RunOptimizer`); every pass runs
/// through `run(_:on:)`, the one wrapper that does all three.
public struct OptimizerPipeline {
    public let passes: [any OptimizerPass]
    public let disabledPasses: Set<String>
    /// Validate the graph before the first pass and after each (checked mode).
    public let validate: Bool

    public init(passes: [any OptimizerPass], disabledPasses: Set<String> = [], validate: Bool = true) {
        self.passes = passes
        self.disabledPasses = disabledPasses
        self.validate = validate
    }

    public func run(_ graph: inout PlanGraph) throws -> [PassReport] {
        if validate { try graph.validate(after: "planning (before the first optimizer pass)") }
        var reports: [PassReport] = []
        for pass in passes {
            if let report = try run(pass, on: &graph) { reports.append(report) }
        }
        return reports
    }

    /// One pass: skipped (nil) when disabled, else timed and followed by validation.
    private func run(_ pass: any OptimizerPass, on graph: inout PlanGraph) throws -> PassReport? {
        guard !disabledPasses.contains(pass.name) else { return nil }
        let clock = ContinuousClock()
        var changes = 0
        let elapsed = clock.measure { changes = pass.run(&graph) }
        if validate { try graph.validate(after: "pass \(pass.name)") }
        return PassReport(name: pass.name, changes: changes, microseconds: elapsed.microseconds)
    }
}

extension Duration {
    /// The duration in microseconds, as a Double.
    public var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000_000 + Double(attoseconds) / 1_000_000_000_000
    }
}
