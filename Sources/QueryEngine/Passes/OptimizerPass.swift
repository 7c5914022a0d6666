/// An ahead-of-time rewrite of the plan graph: a name and a function over the graph.
/// Passes never remove a node that feeds an output.
public protocol OptimizerPass {
    var name: String { get }
    /// Rewrites the graph and returns how many changes it made.
    func run(_ graph: inout PlanGraph) -> Int
}

/// What the pipeline recorded for one pass.
public struct PassReport: Sendable {
    public let name: String
    public let changes: Int
    public let microseconds: Double
}
