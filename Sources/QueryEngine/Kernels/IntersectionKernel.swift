import Relational

/// Symmetric intersection: each side's rows are kept (in a `RowKeySet`) to be probed by the
/// other side's later rows. A side is dropped once the other operand is complete (nothing
/// will probe it).
final class IntersectionKernel: Kernel {
    /// Unchecked exclusivity: touched once per row, never by overlapping accesses.
    @exclusivity(unchecked) private var sides = [RowKeySet(), RowKeySet()]
    private var complete = [false, false]

    func receive(_ batch: Batch, operand: Int) -> Batch {
        let other = 1 - operand
        let keepSide = !complete[other]
        var out = Batch()
        for piece in batch.pieces {
            if keepSide { _ = sides[operand].insertNew(piece) }
            out.append(piece.selecting(sides[other].select(piece, holding: true)))
        }
        return out
    }

    func operandCompleted(_ operand: Int) -> Batch {
        complete[operand] = true
        sides[1 - operand] = RowKeySet()
        return .empty
    }

    /// A side is stored only while the other operand is incomplete; its rows are decoded
    /// from their keys (a key is the whole row; an integral real comes back as the equal
    /// integer).
    func retainedRows(ofOperand operand: Int) -> [Row]? {
        guard !complete[1 - operand] else { return nil }
        return sides[operand].allValues.map { Row($0) }
    }

    func retainedRowCount(ofOperand operand: Int) -> Int? {
        complete[1 - operand] ? nil : sides[operand].count
    }

    func freshCopy() -> any Kernel { IntersectionKernel() }
}
