/// Rows of one or more stores, for testing a predicate a run of rows at a time: row `k`'s
/// value at predicate position `j` is `readers[partOf[j]]`'s value at row
/// `positions[partOf[j]][k]`, column `columnOf[j]`. A memory table's scan has one part
/// (its candidates); a join's output view has one part per store it pairs.
public struct StoredRows {
    public let readers: [KeyReader]
    public let positions: [UnsafeBufferPointer<Int>]
    public let partOf: [Int]
    public let columnOf: [Int]

    public init(readers: [KeyReader], positions: [UnsafeBufferPointer<Int>], partOf: [Int], columnOf: [Int]) {
        self.readers = readers
        self.positions = positions
        self.partOf = partOf
        self.columnOf = columnOf
    }
}

extension CompiledPredicate {
    /// The indexes `k` in `0..<count` of the rows the predicate holds for, ascending: the
    /// same answer as `matches` row by row. A conjunction narrows a selection vector one
    /// conjunct at a time, and a comparison of a column with a constant runs as one loop
    /// over the column's tags and payloads (integers compared as integers, text by its
    /// stored bytes); values of another class, and every other kind of node, go through
    /// `KeyReader.compare` / the row-at-a-time evaluation, so the answer stays exact.
    public func selectRows(_ count: Int, of rows: StoredRows) -> [Int] {
        // Filled in place: `Array(0..<count)` went through the generic collection copy.
        var selection = [Int](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count { buffer[i] = i }
            initialized = count
        }
        Self.narrow(&selection, root, rows)
        return selection
    }

    private static func narrow(_ selection: inout [Int], _ node: Node, _ rows: StoredRows) {
        switch node {
        case let .constant(b):
            if !b { selection.removeAll() }
        case let .and(parts):
            for part in parts where !selection.isEmpty { narrow(&selection, part, rows) }
        case let .attributeValue(i, op, constant):
            let part = rows.partOf[i]
            let reader = rows.readers[part]
            let column = rows.columnOf[i]
            let storage = reader.columns[column]
            let positions = rows.positions[part]
            switch constant {
            case let .integer(c):
                keep(&selection) { k in
                    let p = positions[k]
                    if storage.tags[p] == .integer {
                        let a = storage.payloads[p]
                        return op.holds(forComparison: a < c ? -1 : (a == c ? 0 : 1))
                    }
                    return op.holds(forComparison: reader.compare(row: p, column: column, with: constant))
                }
            case var .text(s):
                s.withUTF8 { utf8 in
                    let bytes = UnsafeRawBufferPointer(utf8)
                    keep(&selection) { k in
                        let p = positions[k]
                        if storage.tags[p] == .text {
                            let stored = ColumnStorage.bytes(storage.texts, Int(storage.payloads[p]))
                            if op == .equal || op == .notEqual {
                                // Different lengths (the usual case) settle it without reading the bytes.
                                let same = stored.count == bytes.count && compareByteBuffers(stored, bytes) == 0
                                return same == (op == .equal)
                            }
                            return op.holds(forComparison: compareByteBuffers(stored, bytes))
                        }
                        return op.holds(forComparison: reader.compare(row: p, column: column, with: constant))
                    }
                }
            default:
                keep(&selection) { k in
                    op.holds(forComparison: reader.compare(row: positions[k], column: column, with: constant))
                }
            }
        default:
            keep(&selection) { k in evaluate(node, StoredRowsRow(rows: rows, k: k)) }
        }
    }

    /// Keeps the selected indexes `test` holds for, in order, in place.
    @inline(__always)
    private static func keep(_ selection: inout [Int], _ test: (Int) -> Bool) {
        let kept = selection.withUnsafeMutableBufferPointer { buffer -> Int in
            var w = 0
            for r in 0..<buffer.count {
                let k = buffer[r]
                if test(k) {
                    buffer[w] = k
                    w += 1
                }
            }
            return w
        }
        selection.removeLast(selection.count - kept)
    }
}

/// Row `k` of `StoredRows`, for the row-at-a-time evaluation.
private struct StoredRowsRow: PredicateInput {
    let rows: StoredRows
    let k: Int

    func compare(_ position: Int, with constant: Value) -> Int {
        let p = rows.partOf[position]
        return rows.readers[p].compare(row: rows.positions[p][k], column: rows.columnOf[position], with: constant)
    }

    func value(_ position: Int) -> Value {
        let p = rows.partOf[position]
        return rows.readers[p].value(row: rows.positions[p][k], column: rows.columnOf[position])
    }
}
