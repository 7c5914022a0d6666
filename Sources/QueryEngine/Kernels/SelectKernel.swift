import Relational

/// Keeps the rows the predicate holds for; stateless. A column view only narrows its
/// positions, decoding just the columns the predicate reads.
final class SelectKernel: Kernel {
    private let test: CompiledPredicate
    private let referenced: [Int]
    private let width: Int

    init(test: CompiledPredicate, scheme: Scheme) {
        self.test = test
        referenced = test.predicate.attributes.compactMap { scheme.index(of: $0) }.sorted()
        width = scheme.count
    }

    private init(_ other: SelectKernel) {
        test = other.test
        referenced = other.referenced
        width = other.width
    }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        var out = Batch()
        for piece in batch.pieces {
            out.append(piece.selecting(piece.matching(test, referenced: referenced, width: width)))
        }
        return out
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { SelectKernel(self) }
}
