import Relational

/// Keeps some attributes; rows that coincide after projecting are emitted once. Seen rows
/// are kept as key encodings (`EncodedKeySet`), and a column view stays a view: the new
/// rows' positions, remapped to the kept columns.
final class ProjectKernel: Kernel {
    private let map: ColumnMap
    /// Unchecked exclusivity: touched once per row, never by overlapping accesses.
    @exclusivity(unchecked) private var seen = EncodedKeySet()

    init(map: ColumnMap) { self.map = map }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        var out = Batch()
        for piece in batch.pieces {
            var keep: [Int] = []
            piece.forEachKey(map.positions) { k, key in
                if seen.insert(key).inserted { keep.append(k) }
            }
            out.append(piece.selecting(keep).mapping(map.positions))
        }
        return out
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { ProjectKernel(map: map) }
}
