import Relational

/// Symmetric intersection: each side's rows are kept (as key encodings) to be probed by the
/// other side's later rows. A side is dropped once the other operand is complete (nothing
/// will probe it).
final class IntersectionKernel: Kernel {
    /// Unchecked exclusivity: touched once per row, never by overlapping accesses.
    @exclusivity(unchecked) private var sides = [EncodedKeySet(), EncodedKeySet()]
    private var complete = [false, false]

    func receive(_ batch: Batch, operand: Int) -> Batch {
        let other = 1 - operand
        let keepSide = !complete[other]
        var out = Batch()
        for piece in batch.pieces {
            var keep: [Int] = []
            piece.forEachKey(nil) { k, key in
                if keepSide { sides[operand].insert(key) }
                if sides[other].find(key) != nil { keep.append(k) }
            }
            out.append(piece.selecting(keep))
        }
        return out
    }

    func operandCompleted(_ operand: Int) -> Batch {
        complete[operand] = true
        sides[1 - operand] = EncodedKeySet()
        return .empty
    }

    /// A side is stored only while the other operand is incomplete; its rows are decoded
    /// from their key encodings (a key is the whole row; an integral real comes back as the
    /// equal integer).
    func retainedRows(ofOperand operand: Int) -> [Row]? {
        guard !complete[1 - operand] else { return nil }
        return sides[operand].allValues.map { Row($0) }
    }

    func freshCopy() -> any Kernel { IntersectionKernel() }
}
