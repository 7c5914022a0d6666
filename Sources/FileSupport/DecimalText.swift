/// A number as the testbed's inputs spell it: decimal digits with an optional sign, point and
/// exponent. Swift's `Double(_:)` also reads `0x1p3`, `inf`, `nan` and `1_0`-free forms of
/// its own, which a config, a command-line number or a file the testbed reads back would
/// otherwise take without a word while other places refuse them.
public enum DecimalText {
    /// The finite value `text` spells in decimal, or nil.
    public static func double<S: StringProtocol>(_ text: S) -> Double? {
        let bytes = Array(text.utf8)
        guard isDecimal(bytes), let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// Digits, signs, one point and an exponent only, starting with a digit, a sign or the
    /// point, and holding a digit.
    public static func isDecimal(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, first != UInt8(ascii: "e"), first != UInt8(ascii: "E"),
              bytes.contains(where: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return false }
        return bytes.allSatisfy { b in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
        }
    }

    /// An integer as every integer input of the testbed is written (configs, options,
    /// `--shard`): an optional minus sign, then `0` or digits without a leading zero. No
    /// plus sign: `+5`, like `010`, is refused rather than read as 5.
    public static func isDecimalInteger<S: StringProtocol>(_ text: S) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard let first = digits.first, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        return first != "0" || digits.count == 1
    }
}
