import Relational

/// Left minus right: left rows are held back until the right operand is complete, then
/// released (and later left rows pass straight through) unless the right side has them.
/// The right side is kept in a `RowKeySet` (one-integer rows as bits, others as key
/// encodings); held-back column views stay views.
final class DifferenceKernel: Kernel {
    /// Unchecked exclusivity: touched once per row, never by overlapping accesses.
    @exclusivity(unchecked) private var right = RowKeySet()
    private var rightComplete = false
    private var pendingLeft = Batch()

    func receive(_ batch: Batch, operand: Int) -> Batch {
        if operand == 1 {
            for piece in batch.pieces { _ = right.insertNew(piece) }
            return .empty
        }
        if rightComplete { return notInRight(batch) }
        pendingLeft.append(contentsOf: batch)
        return .empty
    }

    func operandCompleted(_ operand: Int) -> Batch {
        guard operand == 1 else { return .empty }
        rightComplete = true
        let pending = pendingLeft
        pendingLeft = Batch()
        return notInRight(pending)
    }

    private func notInRight(_ batch: Batch) -> Batch {
        var out = Batch()
        for piece in batch.pieces { out.append(piece.selecting(right.select(piece, holding: false))) }
        return out
    }

    /// Left rows are all held back until the right operand is complete.
    func retainedRows(ofOperand operand: Int) -> [Row]? {
        operand == 0 && !rightComplete ? pendingLeft.rows : nil
    }

    func retainedRowCount(ofOperand operand: Int) -> Int? {
        operand == 0 && !rightComplete ? pendingLeft.count : nil
    }

    func freshCopy() -> any Kernel { DifferenceKernel() }
}
