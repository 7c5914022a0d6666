import FileSupport
import Relational

/// Shape parameters as `key=value` text (from `--param` or a config's `params`), with
/// typed accessors that report the key and what was expected.
public struct ShapeParameters: Sendable, Equatable, CustomStringConvertible {
    public private(set) var values: [String: String]

    public init(_ values: [String: String] = [:]) { self.values = values }

    /// Parses `key=value` assignments; a key given twice is refused (the last value silently
    /// winning would hide a typo in a long command line).
    public init(assignments: [String]) throws {
        var values: [String: String] = [:]
        for text in assignments {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw WorkloadError.malformedParameter(text)
            }
            if let first = values[parts[0]] {
                throw WorkloadError.repeatedParameter(parts[0], first: first, second: parts[1])
            }
            values[parts[0]] = parts[1]
        }
        self.values = values
    }

    public subscript(key: String) -> String? { values[key] }

    /// Canonical text: `key=value` sorted by key, comma-separated.
    public var description: String {
        values.keys.sorted().map { "\($0)=\(values[$0] ?? "")" }.joined(separator: ",")
    }

    func requireOnly(_ known: [String], shape: Shape) throws {
        for key in values.keys.sorted() where !known.contains(key) {
            throw WorkloadError.unknownParameter(
                key, shape: shape.rawValue, known: known, suggestion: closestMatch(to: key, among: known))
        }
    }

    /// The integer under `key` (or `value` when absent) within `minimum...maximum`; the
    /// error names the key, the text given and the range. Every caller passes a maximum, so
    /// no parameter can overflow arithmetic or ask for unbounded work.
    func integer(_ key: String, default value: Int, minimum: Int = 0, maximum: Int) throws -> Int {
        guard let text = values[key] else { return value }
        guard let n = Self.decimalInteger(text), n >= minimum, n <= maximum else {
            throw WorkloadError.outOfRange(name: key, value: text, minimum: minimum, maximum: maximum)
        }
        return n
    }

    func choice(_ key: String, default value: String, among options: [String]) throws -> String {
        guard let text = values[key] else { return value }
        guard options.contains(text) else {
            throw WorkloadError.badParameter(name: key, value: text, expected: options.joined(separator: " | "))
        }
        return text
    }

    /// A probability from 0 to 1 (`0.25`); 0 when absent.
    func fraction(_ key: String) throws -> Double {
        guard let text = values[key] else { return 0 }
        guard let f = DecimalText.double(text), f >= 0, f <= 1 else {
            throw WorkloadError.badParameter(name: key, value: text, expected: "a fraction from 0 to 1 such as 0.25")
        }
        return f
    }

    /// A count (`40`) or a fraction of `total` (`0.01`, at least 1 when positive).
    func countOrFraction(_ key: String, default value: Int, of total: Int) throws -> Int {
        guard let text = values[key] else { return value }
        if let n = Self.decimalInteger(text), n >= 1 { return n }
        if text.contains("."), let f = DecimalText.double(text), f > 0, f <= 1 {
            return max(1, Int((Double(total) * f).rounded()))
        }
        throw WorkloadError.badParameter(name: key, value: text, expected: "a count >= 1 or a fraction in (0, 1] such as 0.01")
    }

    /// `text` as an integer when written as every integer of the testbed is: `+5` and `010`
    /// were read as 5 and 10 here, while a config's integer keys refuse them.
    static func decimalInteger(_ text: String) -> Int? {
        DecimalText.isDecimalInteger(text) ? Int(text) : nil
    }
}
