extension ColumnStore {
    /// Every column borrowed for reading values and their key encodings (no `Row` and no
    /// column copy per value); the store must not change inside `body`.
    public func withKeyReader<R>(_ body: (KeyReader) throws -> R) rethrows -> R {
        try columns.withUnsafeBufferPointer { try body(KeyReader(columns: $0)) }
    }

    /// True when both are the same snapshot (one storage, so equal positions mean equal
    /// rows): what lets a consumer keep positions into one store instead of decoded rows.
    public func sharesStorage(with other: ColumnStore) -> Bool {
        guard count == other.count, width == other.width else { return false }
        let mine = columns.withUnsafeBufferPointer { $0.baseAddress }
        let theirs = other.columns.withUnsafeBufferPointer { $0.baseAddress }
        return mine == theirs
    }
}

/// Reads a store's values by (row, column): decoded, or appended to a key encoding.
public struct KeyReader {
    let columns: UnsafeBufferPointer<ValueColumn>

    @inline(__always)
    public func value(row: Int, column: Int) -> Value { columns[column].value(at: row) }

    /// Appends the value's key encoding (`KeyEncoder`), reading text and blob bytes straight
    /// from the column's dictionary.
    @inline(__always)
    public func encode(row: Int, column: Int, into encoder: inout KeyEncoder) {
        let payload = columns[column].payload(at: row)
        switch columns[column].tag(at: row) {
        case .null: encoder.appendNull()
        case .integer: encoder.appendWord(1, payload)
        case .real: encoder.appendReal(Double(bitPattern: UInt64(bitPattern: payload)))
        case .text: columns[column].texts.withBytes(of: Int(payload)) { encoder.appendBytes(3, $0) }
        case .blob: columns[column].blobs.withBytes(of: Int(payload)) { encoder.appendBytes(4, $0) }
        }
    }
}

extension KeyEncoder {
    @inline(__always)
    mutating func appendNull() { appendTag(0) }
}
