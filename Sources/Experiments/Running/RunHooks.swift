import Relational

/// Injection points for tests: replace a cell's engine (a deliberately wrong engine must be
/// caught by the result-equality check) and stop after some cells (an interruption).
public struct RunHooks {
    /// Given a cell and the executor the runner built, returns the executor to use.
    public var executor: ((Cell, any CellExecutor) -> any CellExecutor)?
    /// Asked between cells with the number of cells completed so far in this invocation;
    /// true stops the run as Ctrl-C would.
    public var shouldStop: ((Int) -> Bool)?
    /// Called as each step after the cells begins; throwing stands for a failure there
    /// (a full disk at the summary), and a test may raise SIGINT in it.
    public var finishing: ((FinishingStep) throws -> Void)?
    /// In a change experiment, may alter a cell's RowChanges of a transaction (numbered from
    /// 1) before they are applied to its state: a wrong propagation the equality check must catch.
    public var changes: ((Cell, Int, inout [RowChange]) -> Void)?

    public init(
        executor: ((Cell, any CellExecutor) -> any CellExecutor)? = nil, shouldStop: ((Int) -> Bool)? = nil,
        finishing: ((FinishingStep) throws -> Void)? = nil
    ) {
        self.executor = executor
        self.shouldStop = shouldStop
        self.finishing = finishing
    }
}

/// The steps of a run after its cells, in order.
public enum FinishingStep: String, Sendable {
    case plans, summary, plots
}

/// How a run (or merge) ended.
public struct RunOutcome {
    public let directory: String
    public let cellsDone: Int
    public let cellsTotal: Int
    public let interrupted: Bool
    public let mismatches: [Mismatch]

    /// 0 complete and equal, 1 a result mismatch, 130 interrupted by Ctrl-C and 143 by
    /// SIGTERM (as a shell reports them).
    public var exitCode: Int32 {
        if !mismatches.isEmpty { return 1 }
        return interrupted ? Interruption.exitStatus : 0
    }
}
