import Relational

/// Values the fuzzer draws: every storage class, values equal across classes (`3` and
/// `3.0`), text that looks like a number, text needing quoting, and large integers near
/// the edge of exact reals. Small domains make joins and set operations match often.
/// Never NaN or infinities (SQLite cannot store NaN; the language has no infinity literal).
enum RandomValues {
    static let integers: [Value] = [-1, 0, 1, 2, 3]
    static let reals: [Value] = [0.5, -1.5, 3.0, 2.25]
    static let texts: [Value] = ["", "a", "b", "A", "3", "é", "x,y", "q\"uote", "line\nbreak"]
    static let blobs: [Value] = [.blob([]), .blob([0]), .blob([0x61])]
    static let large: [Value] = [.integer(9_007_199_254_740_993), .real(9_007_199_254_740_992.0)]

    /// A column's flavour: most columns hold small integers (and nulls) so keys meet;
    /// some mix every class.
    enum Column: CaseIterable {
        case smallIntegers, mixed, text

        static func random(_ random: inout VerificationRandom) -> Column {
            [.smallIntegers, .mixed, .text][random.weighted([6, 3, 1])]
        }
    }

    static func value(for column: Column, _ random: inout VerificationRandom) -> Value {
        if random.chance(0.12) { return .null }
        switch column {
        case .smallIntegers:
            return random.chance(0.1) ? (random.element(of: reals) ?? 0) : (random.element(of: integers) ?? 0)
        case .text:
            return random.element(of: texts) ?? ""
        case .mixed:
            return anyValue(&random)
        }
    }

    /// A value of any class (for mixed columns and predicate constants).
    static func anyValue(_ random: inout VerificationRandom) -> Value {
        switch random.weighted([5, 2, 3, 1, 1, 1]) {
        case 0: return random.element(of: integers) ?? 0
        case 1: return random.element(of: reals) ?? 0
        case 2: return random.element(of: texts) ?? ""
        case 3: return random.element(of: blobs) ?? .null
        case 4: return random.element(of: large) ?? .null
        default: return .null
        }
    }
}
