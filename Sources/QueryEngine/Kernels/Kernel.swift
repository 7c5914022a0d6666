import Relational

/// One operator's row processing in the runner. A kernel holds only its own operator's
/// compiled form and state; the runner's generic path (progress, counters, filters,
/// invariant checks) lives in `NodeRuntime` and `Runner`. Every node's output is a set:
/// a kernel never emits a row twice, given operands that never deliver one twice.
protocol Kernel: AnyObject {
    /// Rows arriving on operand `operand` (never after that operand completed); returns
    /// the rows the node emits now.
    func receive(_ batch: Batch, operand: Int) -> Batch

    /// Operand `operand` has delivered its last row; returns rows the node can emit now
    /// (a difference releases held-back left rows) and drops state no longer needed.
    func operandCompleted(_ operand: Int) -> Batch

    /// A kernel for a copy of the node: the same compiled operator, empty state.
    func freshCopy() -> any Kernel

    /// Empties this kernel's state in place, so the next run of a prepared query can use it
    /// again instead of a `freshCopy` (an allocation and a free per node per run); false
    /// when the kernel does not (the runner then takes a fresh copy).
    func resetForRun() -> Bool

    /// Every row operand `operand` has delivered so far, if the kernel still holds them
    /// all; nil when it does not keep them (heuristics turn them into filters).
    func retainedRows(ofOperand operand: Int) -> [Row]?

    /// How many rows `retainedRows` would hand out, when the kernel can tell without making
    /// them; nil when it cannot (or holds none).
    func retainedRowCount(ofOperand operand: Int) -> Int?

    /// The run's row limit (`QueryEngine.rowLimit`), for a kernel that works long inside one
    /// call (a closure derives pairs round after round before emitting any): it may stop
    /// once that work passes `rows` rows, and then says so (`workExceeded`), for the runner
    /// to abandon the run (`RunTooLarge`) as one whose nodes emitted too many rows.
    func limitWork(to rows: Int)

    /// Whether the kernel stopped because its work passed `limitWork`'s rows.
    var workExceeded: Bool { get }
}

extension Kernel {
    func limitWork(to rows: Int) {}
    var workExceeded: Bool { false }
    func retainedRows(ofOperand operand: Int) -> [Row]? { nil }
    func retainedRowCount(ofOperand operand: Int) -> Int? { nil }
    func resetForRun() -> Bool { false }
}
