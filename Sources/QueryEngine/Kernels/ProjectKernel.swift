import Relational

/// Keeps some attributes; rows that coincide after projecting are emitted once.
final class ProjectKernel: Kernel {
    private let map: ColumnMap
    private var seen = Set<Row>()

    init(map: ColumnMap) { self.map = map }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        var out: [Row] = []
        for row in batch.rows {
            let projected = map.apply(row)
            if seen.insert(projected).inserted { out.append(projected) }
        }
        return Batch(out)
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { ProjectKernel(map: map) }
}
