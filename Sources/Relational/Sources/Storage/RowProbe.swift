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

    /// The same test on the stored values in place (`KeyReader.compare`): no value is
    /// decoded unless the predicate needs one itself (two attributes compared, an IN-set).
    @inline(__always)
    func matches(_ position: Int, _ reader: KeyReader) -> Bool {
        test.matches(StoredRow(reader: reader, row: position))
    }
}

/// A stored row, for testing a predicate on it in place.
struct StoredRow: PredicateInput {
    let reader: KeyReader
    let row: Int

    func compare(_ position: Int, with constant: Value) -> Int {
        reader.compare(row: row, column: position, with: constant)
    }

    func value(_ position: Int) -> Value { reader.value(row: row, column: position) }
}
