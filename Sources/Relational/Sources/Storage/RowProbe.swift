/// Tests a compiled predicate on stored rows without building a `Row` per row: only the
/// columns the predicate reads are decoded, into one reused scratch row.
struct RowProbe {
    let test: CompiledPredicate
    private let referenced: [Int]
    private var scratch: Row

    init(_ test: CompiledPredicate, scheme: Scheme) {
        self.test = test
        referenced = test.predicate.attributes.compactMap { scheme.index(of: $0) }.sorted()
        scratch = Row(Array(repeating: .null, count: scheme.count))
    }

    @inline(__always)
    mutating func matches(_ position: Int, in store: ColumnStore) -> Bool {
        for c in referenced { scratch.values[c] = store.value(row: position, column: c) }
        return test.matches(scratch)
    }
}
