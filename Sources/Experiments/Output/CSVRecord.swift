import FileSupport

/// One row of a result CSV read back, with its place (`file:line`), so that every value
/// read from it is range-checked in one place and a bad one is reported where it is.
public struct CSVRecord {
    public let fields: [String: String]
    public let file: String
    public let line: Int

    /// The largest time a result file may hold, in microseconds (about 115 days).
    public static let maximumMicroseconds = 1e13

    public var place: String { "\(Printable.escaped(file)):\(line)" }

    public func failure(_ column: String, _ problem: String) -> ExperimentFailure {
        .usage("\(place): column \(column) holds \(Printable.excerpt(fields[column] ?? "")); \(problem)")
    }

    public func text(_ column: String) -> String { fields[column] ?? "" }

    /// A non-negative integer in `range`.
    public func integer(_ column: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text(column)), range.contains(value) else {
            throw failure(column, "expected an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// An empty field (nil) or an integer >= 0.
    public func optionalCount(_ column: String) throws -> Int? {
        if text(column).isEmpty { return nil }
        return try integer(column, in: 0...Int.max)
    }

    public func unsigned(_ column: String) throws -> UInt64 {
        guard let value = UInt64(text(column)) else { throw failure(column, "expected an integer >= 0") }
        return value
    }

    /// A measured time: a finite number of microseconds from 0 to `maximumMicroseconds`.
    public func microseconds(_ column: String) throws -> Double {
        guard let value = DecimalText.double(text(column)), value >= 0, value <= Self.maximumMicroseconds else {
            throw failure(column, "expected a time in microseconds from 0 to 1e13")
        }
        return value
    }

    /// A result hash as a run writes it (`ResultHash.isWellFormed`).
    public func resultHash(_ column: String) throws -> String {
        guard ResultHash.isWellFormed(text(column)) else {
            throw failure(column, "expected a result hash as this testbed writes it, 16 hex digits 0-9a-f")
        }
        return text(column)
    }

    /// An empty field (nil) or a finite ratio >= 0.
    public func optionalRatio(_ column: String) throws -> Double? {
        if text(column).isEmpty { return nil }
        guard let value = DecimalText.double(text(column)), value >= 0 else {
            throw failure(column, "expected a finite number >= 0 or nothing")
        }
        return value
    }

    /// Two columns that are both empty (nil) or both hold a time (`time`) or a ratio, low <= high.
    public func optionalInterval(_ lowColumn: String, _ highColumn: String, time: Bool) throws -> Interval? {
        if text(lowColumn).isEmpty && text(highColumn).isEmpty { return nil }
        let low = time ? try microseconds(lowColumn) : try optionalRatio(lowColumn)
        let high = time ? try microseconds(highColumn) : try optionalRatio(highColumn)
        guard let low else { throw failure(lowColumn, "expected a value, since \(highColumn) has one") }
        guard let high else { throw failure(highColumn, "expected a value, since \(lowColumn) has one") }
        guard low <= high else { throw failure(lowColumn, "expected at most \(highColumn)") }
        return Interval(low: low, high: high)
    }
}
