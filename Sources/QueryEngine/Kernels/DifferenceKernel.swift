import Relational

/// Left minus right: left rows are held back until the right operand is complete, then
/// released (and later left rows pass straight through) unless the right side has them.
/// The right side is kept as key encodings; held-back column views stay views.
final class DifferenceKernel: Kernel {
    /// Unchecked exclusivity: touched once per row, never by overlapping accesses.
    @exclusivity(unchecked) private var right = EncodedKeySet()
    private var rightComplete = false
    private var pendingLeft = Batch()

    func receive(_ batch: Batch, operand: Int) -> Batch {
        if operand == 1 {
            for piece in batch.pieces { piece.forEachKey(nil) { _, key in right.insert(key) } }
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
        for piece in batch.pieces {
            var keep: [Int] = []
            piece.forEachKey(nil) { k, key in
                if right.find(key) == nil { keep.append(k) }
            }
            out.append(piece.selecting(keep))
        }
        return out
    }

    /// Left rows are all held back until the right operand is complete.
    func retainedRows(ofOperand operand: Int) -> [Row]? {
        operand == 0 && !rightComplete ? pendingLeft.rows : nil
    }

    func freshCopy() -> any Kernel { DifferenceKernel() }
}
