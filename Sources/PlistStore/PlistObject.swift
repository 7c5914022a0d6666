/// The property-list objects the stores write and read: the subset of Apple's binary
/// property list (`bplist00`) that holds relation values. `null` is the format's null
/// marker (0x00), which Apple's writers never emit but its readers and Python's plistlib
/// accept; integers and reals have distinct markers, so `3` and `3.0` stay apart.
public indirect enum PlistObject: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case string(String)
    case data([UInt8])
    case array([PlistObject])
    /// Keys in the order written (row files write attributes in scheme order).
    case dictionary([(String, PlistObject)])

    public static func == (a: PlistObject, b: PlistObject) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.integer(x), .integer(y)): return x == y
        case let (.real(x), .real(y)): return x.bitPattern == y.bitPattern
        case let (.string(x), .string(y)): return Array(x.utf8) == Array(y.utf8)
        case let (.data(x), .data(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.dictionary(x), .dictionary(y)):
            return x.count == y.count && zip(x, y).allSatisfy { Array($0.0.utf8) == Array($1.0.utf8) && $0.1 == $1.1 }
        case (.null, _), (.integer, _), (.real, _), (.string, _), (.data, _), (.array, _), (.dictionary, _):
            return false
        }
    }
}
