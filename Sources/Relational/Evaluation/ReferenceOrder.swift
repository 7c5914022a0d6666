/// The oracle's own copy of the documented total order (README, "Values"), written apart
/// from `Value`'s `==`, `<` and `hash(into:)` so that a bug there cannot corrupt the
/// engine and its oracle alike:
///
/// - `null < numbers < text < blob`; null equals null.
/// - Integers and reals are one class compared by exact numeric value (`3 == 3.0`,
///   `2^53 + 1 > 2^53` as a real); NaN sorts before every other number and equals NaN.
/// - Text compares by its UTF-8 bytes, blobs by their bytes.
///
/// Nothing here hashes: sets are sorted arrays without neighbours that compare equal.
public enum ReferenceOrder {
    /// Negative, zero or positive as `a` sorts before, with or after `b`.
    public static func compare(_ a: Value, _ b: Value) -> Int {
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case let (.integer(x), .integer(y)): return x == y ? 0 : (x < y ? -1 : 1)
        case let (.integer(x), .real(y)): return compareInteger(x, withReal: y)
        case let (.real(x), .integer(y)): return -compareInteger(y, withReal: x)
        case let (.real(x), .real(y)): return compareReals(x, y)
        case let (.text(x), .text(y)): return compareBytes(x.utf8, y.utf8)
        case let (.blob(x), .blob(y)): return compareBytes(x, y)
        case (.null, .null): return 0
        // Unreachable: equal ranks are all listed above (a new storage class needs its pair here).
        default: return 0
        }
    }

    /// Rows of one scheme, value by value from the first position.
    public static func compare(_ a: Row, _ b: Row) -> Int {
        for i in 0..<min(a.count, b.count) {
            let c = compare(a[i], b[i])
            if c != 0 { return c }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    public static func equal(_ a: Row, _ b: Row) -> Bool { compare(a, b) == 0 }

    /// `rows` sorted in this order (duplicates kept).
    public static func sorted(_ rows: [Row]) -> [Row] {
        rows.sorted { compare($0, $1) < 0 }
    }

    /// `rows` sorted, each distinct row once.
    public static func sortedDistinct(_ rows: [Row]) -> [Row] {
        var out: [Row] = []
        for row in sorted(rows) where out.last.map({ !equal($0, row) }) ?? true { out.append(row) }
        return out
    }

    /// How many rows of `sortedRows` (sorted in this order) equal the row just before them.
    public static func duplicateCount(sorted sortedRows: [Row]) -> Int {
        zip(sortedRows, sortedRows.dropFirst()).filter { equal($0, $1) }.count
    }

    /// Whether the sorted, distinct `rows` hold `row` (binary search).
    public static func contains(_ rows: [Row], _ row: Row) -> Bool {
        var low = 0
        var high = rows.count
        while low < high {
            let mid = (low + high) / 2
            let c = compare(rows[mid], row)
            if c == 0 { return true }
            if c < 0 { low = mid + 1 } else { high = mid }
        }
        return false
    }

    private static func rank(_ v: Value) -> Int {
        switch v {
        case .null: return 0
        case .integer, .real: return 1
        case .text: return 2
        case .blob: return 3
        }
    }

    private static func compareReals(_ x: Double, _ y: Double) -> Int {
        switch (x.isNaN, y.isNaN) {
        case (true, true): return 0
        case (true, false): return -1
        case (false, true): return 1
        case (false, false): return x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    /// Exact: converting `i` to a double rounds to nearest, which is monotonic, so a strict
    /// order between `Double(i)` and `d` holds between `i` and `d` too. When they are equal
    /// `d` is integral, and either fits Int64 (compare as integers) or is 2^63 (above all).
    private static func compareInteger(_ i: Int64, withReal d: Double) -> Int {
        if d.isNaN { return 1 }
        let rounded = Double(i)
        if rounded < d { return -1 }
        if rounded > d { return 1 }
        guard let exact = Int64(exactly: d) else { return -1 }
        return i == exact ? 0 : (i < exact ? -1 : 1)
    }

    /// Byte by byte; a proper prefix sorts first.
    private static func compareBytes<X: Sequence<UInt8>, Y: Sequence<UInt8>>(_ x: X, _ y: Y) -> Int {
        var i = x.makeIterator()
        var j = y.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case let (a?, b?): if a != b { return a < b ? -1 : 1 }
            }
        }
    }
}
