import Relational

/// Renames attributes by reordering columns; stateless (a bijection keeps rows distinct).
final class RenameKernel: Kernel {
    private let map: ColumnMap

    init(map: ColumnMap) { self.map = map }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        Batch(batch.rows.map { map.apply($0) })
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { RenameKernel(map: map) }
}
