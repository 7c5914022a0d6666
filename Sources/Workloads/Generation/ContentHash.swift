import Relational

/// A stable 64-bit FNV-1a hash over a canonical byte encoding of a dataset, the same on
/// every machine and in every run (Swift's `Hasher` is seeded per process, so it is not used).
///
/// Canonical bytes, tables in name order:
///   table name (UTF-8), 0x00, attribute count (u64 LE), each attribute name + 0x00,
///   row count (u64 LE), then the rows sorted in the value order, each value as
///   tag byte (0 null, 1 integer, 2 real, 3 text, 4 blob) + payload:
///   integer i64 LE; real IEEE bit pattern u64 LE; text/blob length u64 LE + bytes.
public struct ContentHasher {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    @inline(__always)
    public mutating func add(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    public mutating func add(_ x: UInt64) {
        var v = x
        for _ in 0..<8 {
            add(byte: UInt8(truncatingIfNeeded: v))
            v >>= 8
        }
    }

    public mutating func add<C: Collection>(bytes: C) where C.Element == UInt8 {
        add(UInt64(bytes.count))
        for b in bytes { add(byte: b) }
    }

    public mutating func add(_ value: Value) {
        switch value {
        case .null: add(byte: 0)
        case let .integer(i): add(byte: 1); add(UInt64(bitPattern: i))
        case let .real(d): add(byte: 2); add(d.bitPattern)
        case let .text(s): add(byte: 3); add(bytes: s.utf8)
        case let .blob(b): add(byte: 4); add(bytes: b)
        }
    }

    public mutating func add(table name: String, scheme: Scheme, rows: [Row]) {
        addHeader(table: name, scheme: scheme, rowCount: rows.count)
        let sorted = isSorted(rows) ? rows : rows.sorted()
        for row in sorted { add(row: row) }
    }

    /// The same encoding from rows held as columns: rows are decoded one at a time and
    /// hashed as they come while they are in order (generated tables usually are); only a
    /// table found out of order is decoded whole and sorted.
    public mutating func add(table name: String, scheme: Scheme, store: ColumnStore) {
        let start = self
        addHeader(table: name, scheme: scheme, rowCount: store.count)
        var previous: Row?
        for p in 0..<store.count {
            let row = store.row(at: p)
            if let previous, !(previous < row) {
                self = start
                add(table: name, scheme: scheme, rows: store.rows)
                return
            }
            add(row: row)
            previous = row
        }
    }

    /// The part of a table's encoding before its rows; a streaming writer that knows the
    /// row count up front calls this, then `add(row:)` for each row in sorted order.
    public mutating func addHeader(table name: String, scheme: Scheme, rowCount: Int) {
        for b in name.utf8 { add(byte: b) }
        add(byte: 0)
        add(UInt64(scheme.count))
        for a in scheme.attributes {
            for b in a.name.utf8 { add(byte: b) }
            add(byte: 0)
        }
        add(UInt64(rowCount))
    }

    /// One row's values (rows must come in the value order, as `add(table:)` sorts them).
    public mutating func add(row: Row) {
        for v in row.values { add(v) }
    }

    /// 16 lower-case hex digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private func isSorted(_ rows: [Row]) -> Bool {
        for i in rows.indices.dropFirst() where !(rows[i - 1] < rows[i]) { return false }
        return true
    }
}

extension Dataset {
    /// The content hash of every table (names, schemes, sorted rows); see `ContentHasher`.
    public var contentHash: UInt64 {
        var hasher = ContentHasher()
        for t in tables { hasher.add(table: t.name, scheme: t.scheme, store: t.store) }
        return hasher.value
    }

    public var contentHashHex: String {
        var hasher = ContentHasher()
        for t in tables { hasher.add(table: t.name, scheme: t.scheme, store: t.store) }
        return hasher.hex
    }
}
