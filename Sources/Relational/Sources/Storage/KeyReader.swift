extension ColumnStore {
    /// Every column borrowed for reading values and their key encodings (no `Row` and no
    /// column copy per value); the store must not change inside `body`.
    ///
    /// Set-up is one stack buffer of pointers filled column by column (no closure nesting
    /// per column, no heap allocation): a small query borrows a store per batch, so this is
    /// fixed cost on every run.
    public func withKeyReader<R>(_ body: (KeyReader) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: ColumnStorage.self, capacity: columns.count) { buffer in
            borrowStorage(into: buffer)
            // `columns` owns every array the pointers point into; keep it alive until `body` is done.
            return try withExtendedLifetime(columns) { try body(KeyReader(columns: UnsafeBufferPointer(buffer))) }
        }
    }

    /// Fills `buffer` (one slot per column) with each column's storage pointers.
    private func borrowStorage(into buffer: UnsafeMutableBufferPointer<ColumnStorage>) {
        columns.withUnsafeBufferPointer { columns in
            for i in columns.indices { buffer.initializeElement(at: i, to: columns[i].borrowedStorage()) }
        }
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

/// One column's storage, borrowed: tags, payloads, and the dictionaries' bytes and ends.
struct ColumnStorage {
    let tags: UnsafeBufferPointer<ValueTag>
    let payloads: UnsafeBufferPointer<Int64>
    let texts: (arena: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>)
    let blobs: (arena: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>)

    @inline(__always)
    static func bytes(_ d: (arena: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>), _ code: Int) -> UnsafeRawBufferPointer {
        let start = code == 0 ? 0 : d.ends[code - 1]
        return UnsafeRawBufferPointer(rebasing: d.arena[start..<d.ends[code]])
    }
}

/// Reads a store's values by (row, column): decoded, or appended to a key encoding.
public struct KeyReader {
    /// Pointers only, so copying a reader (once per value read) costs no reference counting.
    let columns: UnsafeBufferPointer<ColumnStorage>

    public func value(row: Int, column: Int) -> Value {
        let c = columns[column]
        let payload = c.payloads[row]
        switch c.tags[row] {
        case .null: return .null
        case .integer: return .integer(payload)
        case .real: return .real(Double(bitPattern: UInt64(bitPattern: payload)))
        case .text: return .text(String(decoding: ColumnStorage.bytes(c.texts, Int(payload)), as: UTF8.self))
        case .blob: return .blob(Array(ColumnStorage.bytes(c.blobs, Int(payload))))
        }
    }

    /// The value if it is stored as an integer, else nil (the join and set kernels' fast
    /// path for one-integer keys; see `EncodedKeySet.insert(integer:)`).
    @inline(__always)
    public func integer(row: Int, column: Int) -> Int64? {
        let c = columns[column]
        return c.tags[row] == .integer ? c.payloads[row] : nil
    }

    /// Copies the values of `column` at `rows` into `out` where they are stored as
    /// integers, and appends to `others` the indexes `k` whose value is not (a real equal
    /// to an integer included: its key spelling differs), leaving `out[k]` 0 there.
    public func integers(column: Int, rows: UnsafeBufferPointer<Int>, into out: UnsafeMutableBufferPointer<Int64>, others: inout [Int]) {
        let c = columns[column]
        for k in 0..<rows.count {
            let p = rows[k]
            if c.tags[p] == .integer {
                out[k] = c.payloads[p]
            } else {
                out[k] = 0
                others.append(k)
            }
        }
    }

    /// Appends the value's key encoding (`KeyEncoder`), reading text and blob bytes straight
    /// from the column's dictionary.
    public func encode(row: Int, column: Int, into encoder: KeyEncoder) {
        let c = columns[column]
        let payload = c.payloads[row]
        switch c.tags[row] {
        case .null: encoder.appendTag(0)
        case .integer: encoder.appendWord(1, payload)
        case .real: encoder.appendReal(Double(bitPattern: UInt64(bitPattern: payload)))
        case .text: encoder.appendBytes(3, ColumnStorage.bytes(c.texts, Int(payload)))
        case .blob: encoder.appendBytes(4, ColumnStorage.bytes(c.blobs, Int(payload)))
        }
    }
}

extension KeyReader {
    /// `Value.compare(stored value, constant)`, comparing text and blobs by their stored
    /// bytes (no `String` is made).
    public func compare(row: Int, column: Int, with constant: Value) -> Int {
        let c = columns[column]
        let payload = c.payloads[row]
        switch c.tags[row] {
        case .null: return Value.compare(.null, constant)
        case .integer: return Value.compare(.integer(payload), constant)
        case .real: return Value.compare(.real(Double(bitPattern: UInt64(bitPattern: payload))), constant)
        case .text:
            guard case var .text(s) = constant else { return Value.compare(.text(""), constant) }
            let stored = ColumnStorage.bytes(c.texts, Int(payload))
            return s.withUTF8 { compareByteBuffers(stored, UnsafeRawBufferPointer($0)) }
        case .blob:
            guard case let .blob(b) = constant else { return Value.compare(.blob([]), constant) }
            let stored = ColumnStorage.bytes(c.blobs, Int(payload))
            return b.withUnsafeBytes { compareByteBuffers(stored, $0) }
        }
    }
}
