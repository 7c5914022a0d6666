import Relational

/// Keeps the rows the predicate holds for; stateless. A column view only narrows its
/// positions, the predicate tested on the stored values in place.
final class SelectKernel: Kernel {
    private let test: CompiledPredicate

    init(test: CompiledPredicate) { self.test = test }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        var out = Batch()
        for piece in batch.pieces {
            out.append(piece.selecting(piece.matching(test)))
        }
        return out
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { SelectKernel(test: test) }
}
