/// Decodes a binary property list (`bplist00`) into a `PlistObject`, checking every offset,
/// reference and count against the data: a damaged or foreign file is an error naming what
/// is wrong and where (byte offset), never a crash. Booleans, dates, UIDs and sets are not
/// relation values and are refused by name.
public struct BinaryPlistReader {
    private let bytes: [UInt8]
    private let offsets: [Int]
    private let refSize: Int
    /// Containers nested deeper than this are refused (a reference cycle would recurse forever).
    static let maximumDepth = 64

    /// The root object of `bytes`; throws `PlistFormatError`.
    public static func decode(_ bytes: [UInt8]) throws -> PlistObject {
        let reader = try BinaryPlistReader(bytes)
        // A file whose containers are not shared decodes each reference slot once, and every
        // slot takes at least a byte of the file: decoding more objects than the file has
        // bytes means containers referenced from several places, which a damaged or crafted
        // file can nest into 2^64 copies (a 243-byte file took all memory and aborted). The
        // depth is added so that a reference cycle is still reported as too deep a nesting.
        var budget = bytes.count + maximumDepth
        return try reader.object(reader.root, depth: 0, budget: &budget)
    }

    private let root: Int

    private init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else {
            throw PlistFormatError("not a binary property list (no 'bplist0' header and trailer)")
        }
        let t = bytes.count - 32
        let offsetSize = Int(bytes[t + 6])
        refSize = Int(bytes[t + 7])
        guard [1, 2, 4, 8].contains(offsetSize), [1, 2, 4, 8].contains(refSize) else {
            throw PlistFormatError("bad trailer: offset size \(offsetSize), reference size \(refSize)")
        }
        let count = Self.unsigned(bytes, t + 8, 8)
        let top = Self.unsigned(bytes, t + 16, 8)
        let table = Self.unsigned(bytes, t + 24, 8)
        guard count > 0, count < UInt64(bytes.count), top < count, table >= 8,
              table + count * UInt64(offsetSize) <= UInt64(t) else {
            throw PlistFormatError("bad trailer: \(count) objects, top \(top), offset table at \(table)")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let o = Self.unsigned(bytes, Int(table) + i * offsetSize, offsetSize)
            guard o >= 8, o < table else { throw PlistFormatError("object \(i) has offset \(o), outside the object area") }
            offsets.append(Int(o))
        }
        self.offsets = offsets
        root = Int(top)
    }

    private func object(_ number: Int, depth: Int, budget: inout Int) throws -> PlistObject {
        guard depth <= Self.maximumDepth else { throw PlistFormatError("objects nested more than \(Self.maximumDepth) deep") }
        budget -= 1
        guard budget >= 0 else {
            throw PlistFormatError("containers shared by other containers expand to more objects than the file's "
                + "\(bytes.count) bytes can hold (a damaged or crafted file)")
        }
        let at = offsets[number]
        let marker = bytes[at]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            if marker == 0x00 { return .null }
            if marker == 0x08 || marker == 0x09 { throw PlistFormatError("a boolean at byte \(at) is not a relation value") }
            throw PlistFormatError("unknown marker 0x\(hex(marker)) at byte \(at)")
        case 0x1:
            return .integer(try integer(at))
        case 0x2:
            guard low == 2 || low == 3 else { throw PlistFormatError("a real of \(1 << low) bytes at byte \(at)") }
            try need(at + 1, 1 << low)
            if low == 2 { return .real(Double(Float(bitPattern: UInt32(Self.unsigned(bytes, at + 1, 4))))) }
            return .real(Double(bitPattern: Self.unsigned(bytes, at + 1, 8)))
        case 0x4:
            let (count, start) = try length(at, low)
            try need(start, count)
            return .data(Array(bytes[start..<start + count]))
        case 0x5:
            let (count, start) = try length(at, low)
            try need(start, count)
            let chars = bytes[start..<start + count]
            guard chars.allSatisfy({ $0 < 0x80 }) else { throw PlistFormatError("an ASCII string at byte \(at) holds a byte above 127") }
            return .string(String(decoding: chars, as: UTF8.self))
        case 0x6:
            let (count, start) = try length(at, low)
            try need(start, count * 2)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for i in 0..<count { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
            guard let text = String(validating: units, as: UTF16.self) else {
                throw PlistFormatError("a UTF-16 string at byte \(at) is not valid UTF-16")
            }
            return .string(text)
        case 0xA:
            let (count, start) = try length(at, low)
            try need(start, count * refSize)
            var items: [PlistObject] = []
            items.reserveCapacity(count)
            for i in 0..<count { items.append(try object(try reference(start + i * refSize), depth: depth + 1, budget: &budget)) }
            return .array(items)
        case 0xD:
            let (count, start) = try length(at, low)
            try need(start, count * refSize * 2)
            var pairs: [(String, PlistObject)] = []
            pairs.reserveCapacity(count)
            for i in 0..<count {
                guard case let .string(key) = try object(try reference(start + i * refSize), depth: depth + 1, budget: &budget) else {
                    throw PlistFormatError("a dictionary at byte \(at) has a key that is not a string")
                }
                pairs.append((key, try object(try reference(start + (count + i) * refSize), depth: depth + 1, budget: &budget)))
            }
            return .dictionary(pairs)
        case 0x3: throw PlistFormatError("a date at byte \(at) is not a relation value")
        case 0x8: throw PlistFormatError("a UID at byte \(at) is not a relation value")
        case 0xC: throw PlistFormatError("a set at byte \(at) is not supported")
        default: throw PlistFormatError("unknown marker 0x\(hex(marker)) at byte \(at)")
        }
    }

    /// 1, 2 and 4-byte integers are unsigned, 8-byte ones signed; 16-byte ones only when
    /// they fit 64 bits.
    private func integer(_ at: Int) throws -> Int64 {
        let low = Int(bytes[at] & 0x0F)
        guard low <= 4 else { throw PlistFormatError("an integer of \(1 << low) bytes at byte \(at)") }
        let width = 1 << low
        try need(at + 1, width)
        if width == 16 {
            let high = Self.unsigned(bytes, at + 1, 8)
            let value = Int64(bitPattern: Self.unsigned(bytes, at + 9, 8))
            guard high == (value < 0 ? UInt64.max : 0) else { throw PlistFormatError("a 128-bit integer at byte \(at) does not fit 64 bits") }
            return value
        }
        let raw = Self.unsigned(bytes, at + 1, width)
        return width == 8 ? Int64(bitPattern: raw) : Int64(raw)
    }

    /// The element count of a container or string and where its contents start.
    private func length(_ at: Int, _ low: Int) throws -> (Int, Int) {
        if low < 15 { return (low, at + 1) }
        try need(at + 1, 1)
        guard bytes[at + 1] >> 4 == 0x1 else { throw PlistFormatError("a length at byte \(at + 1) is not an integer") }
        let width = 1 << Int(bytes[at + 1] & 0x0F)
        let count = try integer(at + 1)
        guard count >= 0, count < Int64(bytes.count) else { throw PlistFormatError("a length of \(count) at byte \(at + 1)") }
        return (Int(count), at + 2 + width)
    }

    private func reference(_ at: Int) throws -> Int {
        let r = Self.unsigned(bytes, at, refSize)
        guard r < UInt64(offsets.count) else { throw PlistFormatError("reference \(r) at byte \(at) names no object") }
        return Int(r)
    }

    private func need(_ start: Int, _ count: Int) throws {
        guard count >= 0, start + count <= bytes.count - 32 else {
            throw PlistFormatError("an object at byte \(start) runs past the end of the data")
        }
    }

    private static func unsigned(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<width { v = v << 8 | UInt64(bytes[at + i]) }
        return v
    }

    private func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
    }
}

/// What is wrong with a property list's bytes (the caller adds the file).
public struct PlistFormatError: Error, Equatable, CustomStringConvertible {
    public let problem: String
    public init(_ problem: String) { self.problem = problem }
    public var description: String { problem }
}
