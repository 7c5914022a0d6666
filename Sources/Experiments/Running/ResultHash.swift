import Relational
import Workloads

/// A stable hash of a query's results: per output, the rows sorted in the value order and
/// fed to `ContentHasher` (FNV-1a over a canonical encoding). Row order never matters, and
/// integral reals are hashed as the equal integer (`3.0` like `3`; `-0.0` like `0`), since
/// SQLite may return either for the same value.
public enum ResultHash {
    public static func of(_ outputs: [[Row]]) -> String {
        var hasher = ContentHasher()
        hasher.add(UInt64(outputs.count))
        for rows in outputs {
            let normalized = rows.map(normalize).sorted()
            hasher.add(UInt64(normalized.count))
            for row in normalized {
                hasher.add(UInt64(row.count))
                for value in row.values { hasher.add(value) }
            }
        }
        return hasher.hex
    }

    /// Marks a change cell's hash when a transaction's changes were not exact (see
    /// `ChangeCellRunner`), so the equality check reports it.
    static let inexactPrefix = "inexact-"

    /// Whether `text` is a hash as a run writes it: 16 lower-case hex digits (`ContentHasher.hex`),
    /// after `inexactPrefix` for a change cell. A run writes one on every row, so an empty
    /// field is not one either.
    static func isWellFormed(_ text: String) -> Bool {
        let digits = text.hasPrefix(inexactPrefix) ? text.utf8.dropFirst(inexactPrefix.utf8.count) : text.utf8[...]
        return digits.count == 16 && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    static func normalize(_ row: Row) -> Row {
        Row(row.values.map { value in
            if case let .real(d) = value, let exact = Int64(exactly: d) { return .integer(exact) }
            return value
        })
    }
}
