// Equality, hashing and the total order of `Value` (see Value's documentation).

extension Value: Comparable, Hashable {
    public static func == (lhs: Value, rhs: Value) -> Bool {
        compare(lhs, rhs) == 0
    }

    public static func < (lhs: Value, rhs: Value) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Three-way comparison in the total order: negative, zero or positive.
    public static func compare(_ lhs: Value, _ rhs: Value) -> Int {
        switch (lhs, rhs) {
        case (.null, .null):
            return 0
        case let (.integer(a), .integer(b)):
            return a < b ? -1 : (a == b ? 0 : 1)
        case let (.real(a), .real(b)):
            return compareReals(a, b)
        case let (.integer(a), .real(b)):
            return compareIntegerToReal(a, b)
        case let (.real(a), .integer(b)):
            return -compareIntegerToReal(b, a)
        case let (.text(a), .text(b)):
            return compareUTF8(a, b)
        case let (.blob(a), .blob(b)):
            return compareBytes(a, b)
        default:
            return lhs.typeRank < rhs.typeRank ? -1 : 1
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case let .integer(i):
            hasher.combine(1 as UInt8)
            hasher.combine(i)
        case let .real(d):
            // Integral reals hash like the equal integer, since they compare equal.
            if let exact = Int64(exactly: d) {
                hasher.combine(1 as UInt8)
                hasher.combine(exact)
            } else {
                hasher.combine(2 as UInt8)
                hasher.combine(d.isNaN ? Double.nan.bitPattern : d.bitPattern)
            }
        case let .text(s):
            hasher.combine(3 as UInt8)
            var copy = s
            copy.withUTF8 { buffer in
                hasher.combine(buffer.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(buffer))
            }
        case let .blob(bytes):
            hasher.combine(4 as UInt8)
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}

private func compareReals(_ a: Double, _ b: Double) -> Int {
    if a.isNaN || b.isNaN {
        if a.isNaN && b.isNaN { return 0 }
        return a.isNaN ? -1 : 1
    }
    return a < b ? -1 : (a == b ? 0 : 1)
}

/// Exact comparison of an integer with a real, without rounding the integer to a double.
private func compareIntegerToReal(_ i: Int64, _ d: Double) -> Int {
    if d.isNaN { return 1 }
    if d >= 9_223_372_036_854_775_808.0 { return -1 }
    if d < -9_223_372_036_854_775_808.0 { return 1 }
    let floor = d.rounded(.down)
    let floorInt = Int64(floor)
    if i < floorInt { return -1 }
    if i > floorInt { return 1 }
    return d > floor ? -1 : 0
}

private func compareUTF8(_ a: String, _ b: String) -> Int {
    var a = a
    var b = b
    return a.withUTF8 { pa in
        b.withUTF8 { pb in
            compareBuffers(UnsafeRawBufferPointer(pa), UnsafeRawBufferPointer(pb))
        }
    }
}

private func compareBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in compareBuffers(pa, pb) } }
}

private func compareBuffers(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let common = min(a.count, b.count)
    for i in 0..<common where a[i] != b[i] {
        return a[i] < b[i] ? -1 : 1
    }
    return a.count < b.count ? -1 : (a.count == b.count ? 0 : 1)
}
