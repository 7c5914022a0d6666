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

    /// How many distinct keys integer and text columns draw from: `nil` is the classic
    /// small pools above (tables of a few rows); a count widens them for large tables, so
    /// that a join of hundreds of rows matches a few rows per key rather than exploding.
    struct Domain: Sendable {
        let keys: Int?

        static let small = Domain(keys: nil)
    }

    static func value(for column: Column, in domain: Domain = .small, _ random: inout VerificationRandom) -> Value {
        if random.chance(0.12) { return .null }
        if let keys = domain.keys, column != .mixed || random.chance(0.5) {
            return wideValue(for: column, keys: keys, &random)
        }
        switch column {
        case .smallIntegers:
            return random.chance(0.1) ? (random.element(of: reals) ?? 0) : (random.element(of: integers) ?? 0)
        case .text:
            return random.element(of: texts) ?? ""
        case .mixed:
            return anyValue(&random)
        }
    }

    /// A key from the wide domain: integers `-1..<keys-1`, one in ten stored as the equal
    /// real (`3.0` for `3`) and a few non-integral reals; text `k0`, `k1`, ... with the
    /// classic texts mixed in.
    private static func wideValue(for column: Column, keys: Int, _ random: inout VerificationRandom) -> Value {
        let k = random.int(0...(keys - 1)) - 1
        switch column {
        case .smallIntegers, .mixed:
            switch random.weighted([17, 2, 1]) {
            case 0: return .integer(Int64(k))
            case 1: return .real(Double(k))
            default: return .real(Double(k) + 0.5)
            }
        case .text:
            return random.chance(0.8) ? .text("k\(k)") : (random.element(of: texts) ?? "")
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
