import Relational

/// Union of any number of operands: each row once (seen rows kept in a `RowKeySet`: a
/// one-integer row as a bit in a window of values, any other as its key encoding; a
/// column view passes on narrowed to its new rows).
final class UnionKernel: Kernel {
    /// Unchecked exclusivity: touched once per piece, never by overlapping accesses.
    @exclusivity(unchecked) private var seen = RowKeySet()

    func receive(_ batch: Batch, operand: Int) -> Batch {
        var out = Batch()
        for piece in batch.pieces { out.append(piece.selecting(seen.insertNew(piece))) }
        return out
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { UnionKernel() }
}
