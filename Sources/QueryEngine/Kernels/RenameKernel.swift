import Relational

/// Renames attributes by reordering columns; stateless (a bijection keeps rows distinct).
/// A column view only remaps its columns.
final class RenameKernel: Kernel {
    private let map: ColumnMap
    /// The last views' maps remapped (kept across runs: they depend on no run state).
    private var maps = ColumnMapCache()

    init(map: ColumnMap) { self.map = map }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        var out = Batch()
        for piece in batch.pieces { out.append(piece.mapping(map.positions, maps: &maps)) }
        return out
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { RenameKernel(map: map) }

    func resetForRun() -> Bool { true }
}
