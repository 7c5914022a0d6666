import Relational

/// Union of any number of operands: each row once.
final class UnionKernel: Kernel {
    private var seen = Set<Row>()

    func receive(_ batch: Batch, operand: Int) -> Batch {
        var out: [Row] = []
        for row in batch.rows where seen.insert(row).inserted { out.append(row) }
        return Batch(out)
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { UnionKernel() }
}
