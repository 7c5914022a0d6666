import Relational

/// A join row's key, worked out once per row and used both to store the row and to probe
/// the other operand's table. A single-attribute key that is numeric and integral (an
/// integer, or a real equal to one, as `3 == 3.0`) is carried as its `Int64`, so it needs
/// no key row; every other key (null, text, blob, a fractional or out-of-range real, a key
/// of several attributes) is carried as its key row. The split follows `Value`'s equality
/// and hashing exactly, so equal keys always take the same way.
enum JoinKey {
    case integer(Int64)
    /// An integral real: its integer, and the real as written (handed on by `keys`).
    case integralReal(Int64, Double)
    case row(Row)

    @inline(__always)
    init(of row: Row, at positions: [Int]) {
        if positions.count == 1 {
            switch row.values[positions[0]] {
            case let .integer(i):
                self = .integer(i)
                return
            case let .real(d):
                if let i = Int64(exactly: d) {
                    self = .integralReal(i, d)
                    return
                }
            case .null, .text, .blob:
                break
            }
        }
        self = .row(row.picking(positions))
    }
}

/// One join operand's stored rows by key: integral single keys under their `Int64` (hashing
/// one integer, no key row allocated per probe), any other key under its key row.
struct JoinTable {
    private var byInteger: [Int64: [Row]] = [:]
    /// Integer keys whose first stored value was a real, so `keys` returns each key as it
    /// was first stored, as a table keyed by rows would.
    private var realSpelling: [Int64: Double] = [:]
    private var byRow: [Row: [Row]] = [:]

    mutating func insert(_ row: Row, under key: JoinKey) {
        switch key {
        case let .integer(i):
            byInteger[i, default: []].append(row)
        case let .integralReal(i, d):
            if byInteger[i] == nil { realSpelling[i] = d }
            byInteger[i, default: []].append(row)
        case let .row(k):
            byRow[k, default: []].append(row)
        }
    }

    @inline(__always)
    func matches(_ key: JoinKey) -> [Row]? {
        switch key {
        case let .integer(i), let .integralReal(i, _):
            return byInteger[i]
        case let .row(k):
            return byRow[k]
        }
    }

    /// The distinct keys stored, each as a key row.
    var keys: [Row] {
        var out: [Row] = byInteger.keys.map { i in Row([realSpelling[i].map(Value.real) ?? .integer(i)]) }
        out.append(contentsOf: byRow.keys)
        return out
    }
}
