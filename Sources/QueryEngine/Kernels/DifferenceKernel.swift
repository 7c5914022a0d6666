import Relational

/// Left minus right: left rows are held back until the right operand is complete, then
/// released (and later left rows pass straight through) unless the right side has them.
final class DifferenceKernel: Kernel {
    private var right = Set<Row>()
    private var rightComplete = false
    private var pendingLeft: [Row] = []

    func receive(_ batch: Batch, operand: Int) -> Batch {
        if operand == 1 {
            right.formUnion(batch.rows)
            return .empty
        }
        if rightComplete { return Batch(batch.rows.filter { !right.contains($0) }) }
        pendingLeft.append(contentsOf: batch.rows)
        return .empty
    }

    func operandCompleted(_ operand: Int) -> Batch {
        guard operand == 1 else { return .empty }
        rightComplete = true
        let pending = pendingLeft
        pendingLeft = []
        return Batch(pending.filter { !right.contains($0) })
    }

    /// Left rows are all held back until the right operand is complete.
    func retainedRows(ofOperand operand: Int) -> [Row]? {
        operand == 0 && !rightComplete ? pendingLeft : nil
    }

    func freshCopy() -> any Kernel { DifferenceKernel() }
}
