import Relational

/// Keeps the rows the predicate holds for; stateless.
final class SelectKernel: Kernel {
    private let test: CompiledPredicate

    init(test: CompiledPredicate) { self.test = test }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        Batch(batch.rows.filter { test.matches($0) })
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { SelectKernel(test: test) }
}
