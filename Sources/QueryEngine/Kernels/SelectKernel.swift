import Relational

/// Keeps the rows the predicate holds for; stateless. A column view only narrows its
/// positions, the predicate tested on the stored values in place; a view a table cursor
/// filtered by the same predicate passes whole.
final class SelectKernel: Kernel {
    private let test: CompiledPredicate

    init(test: CompiledPredicate) { self.test = test }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        var out = Batch()
        for piece in batch.pieces {
            // Rows a table cursor already tested with this very predicate (a filter pushed
            // down from this select) all pass; testing them again would only cost time.
            if case let .columns(view) = piece, let known = view.satisfies, known == test.predicate {
                out.append(piece)
                continue
            }
            out.append(piece.selecting(piece.matching(test)))
        }
        return out
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { SelectKernel(test: test) }

    func resetForRun() -> Bool { true }
}
