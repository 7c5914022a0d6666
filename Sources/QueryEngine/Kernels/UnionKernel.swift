import Relational

/// Union of any number of operands: each row once (seen rows kept as key encodings; a
/// column view passes on narrowed to its new rows).
final class UnionKernel: Kernel {
    /// Unchecked exclusivity: touched once per row, never by overlapping accesses.
    @exclusivity(unchecked) private var seen = EncodedKeySet()

    func receive(_ batch: Batch, operand: Int) -> Batch {
        var out = Batch()
        for piece in batch.pieces {
            var keep: [Int] = []
            piece.forEachKey(nil) { k, key in
                if seen.insert(key).inserted { keep.append(k) }
            }
            out.append(piece.selecting(keep))
        }
        return out
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { UnionKernel() }
}
