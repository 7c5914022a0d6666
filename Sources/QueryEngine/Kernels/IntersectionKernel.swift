import Relational

/// Symmetric intersection: each side's rows are kept to be probed by the other side's
/// later rows. A side is dropped once the other operand is complete (nothing will probe it).
final class IntersectionKernel: Kernel {
    private var sides: [Set<Row>] = [[], []]
    private var complete = [false, false]

    func receive(_ batch: Batch, operand: Int) -> Batch {
        let other = 1 - operand
        if !complete[other] { sides[operand].formUnion(batch.rows) }
        return Batch(batch.rows.filter { sides[other].contains($0) })
    }

    func operandCompleted(_ operand: Int) -> Batch {
        complete[operand] = true
        sides[1 - operand] = []
        return .empty
    }

    /// A side is stored only while the other operand is incomplete.
    func retainedRows(ofOperand operand: Int) -> [Row]? {
        complete[1 - operand] ? nil : Array(sides[operand])
    }

    func freshCopy() -> any Kernel { IntersectionKernel() }
}
