/// Encodes a `PlistObject` as a binary property list (`bplist00`): header, objects, offset
/// table, 32-byte trailer. Binary rather than XML because it is several times faster to
/// write and parse, keeps integers and reals apart by marker, and stores a real's 8 bytes
/// exactly (no decimal formatting). Objects are not shared: each value is written where
/// it occurs (equal keys in row dictionaries are few per file).
public enum BinaryPlistWriter {
    public static func encode(_ root: PlistObject) -> [UInt8] {
        var objects: [[UInt8]] = []
        var count = 0
        countObjects(root, &count)
        let refSize = byteWidth(UInt64(max(0, count - 1)))
        _ = append(root, refSize: refSize, into: &objects)
        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(out.count)
            out += object
        }
        let tableOffset = out.count
        let offsetSize = byteWidth(UInt64(max(0, tableOffset)))
        for offset in offsets { putUnsigned(UInt64(offset), width: offsetSize, into: &out) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        putUnsigned(UInt64(objects.count), width: 8, into: &out)
        putUnsigned(0, width: 8, into: &out)  // the root is object 0
        putUnsigned(UInt64(tableOffset), width: 8, into: &out)
        return out
    }

    private static func countObjects(_ object: PlistObject, _ count: inout Int) {
        count += 1
        switch object {
        case .null, .integer, .real, .string, .data: break
        case let .array(items): for item in items { countObjects(item, &count) }
        case let .dictionary(pairs):
            count += pairs.count
            for (_, value) in pairs { countObjects(value, &count) }
        }
    }

    /// Appends `object` (and, after it, its children) and returns its object number.
    private static func append(_ object: PlistObject, refSize: Int, into objects: inout [[UInt8]]) -> Int {
        let number = objects.count
        objects.append([])
        var bytes: [UInt8] = []
        switch object {
        case .null:
            bytes = [0x00]
        case let .integer(v):
            bytes = integerBytes(v)
        case let .real(v):
            bytes = [0x23]
            putUnsigned(v.bitPattern, width: 8, into: &bytes)
        case let .string(s):
            bytes = stringBytes(s)
        case let .data(d):
            bytes = marker(0x40, count: d.count) + d
        case let .array(items):
            var refs: [Int] = []
            for item in items { refs.append(append(item, refSize: refSize, into: &objects)) }
            bytes = marker(0xA0, count: items.count)
            for r in refs { putUnsigned(UInt64(r), width: refSize, into: &bytes) }
        case let .dictionary(pairs):
            var keyRefs: [Int] = []
            var valueRefs: [Int] = []
            for (key, _) in pairs { keyRefs.append(append(.string(key), refSize: refSize, into: &objects)) }
            for (_, value) in pairs { valueRefs.append(append(value, refSize: refSize, into: &objects)) }
            bytes = marker(0xD0, count: pairs.count)
            for r in keyRefs + valueRefs { putUnsigned(UInt64(r), width: refSize, into: &bytes) }
        }
        objects[number] = bytes
        return number
    }

    /// Non-negative integers take 1, 2 or 4 bytes (read as unsigned); others 8 (signed).
    static func integerBytes(_ v: Int64) -> [UInt8] {
        var out: [UInt8] = []
        if v >= 0 && v <= 0xFFFF_FFFF {
            let width = byteWidth(UInt64(v))
            out.append(0x10 | UInt8(width == 1 ? 0 : width == 2 ? 1 : 2))
            putUnsigned(UInt64(v), width: width, into: &out)
        } else {
            out.append(0x13)
            putUnsigned(UInt64(bitPattern: v), width: 8, into: &out)
        }
        return out
    }

    /// ASCII strings as 0x5n (one byte a character), others as UTF-16 big-endian (0x6n).
    private static func stringBytes(_ s: String) -> [UInt8] {
        let utf8 = Array(s.utf8)
        if utf8.allSatisfy({ $0 < 0x80 }) { return marker(0x50, count: utf8.count) + utf8 }
        let units = Array(s.utf16)
        var out = marker(0x60, count: units.count)
        out.reserveCapacity(out.count + units.count * 2)
        for u in units { out.append(UInt8(u >> 8)); out.append(UInt8(u & 0xFF)) }
        return out
    }

    /// A marker byte with the count in its low nibble, or 0xF and an integer object after it.
    private static func marker(_ high: UInt8, count: Int) -> [UInt8] {
        if count < 15 { return [high | UInt8(count)] }
        return [high | 0x0F] + integerBytes(Int64(count))
    }

    /// 1, 2, 4 or 8: the bytes an unsigned value needs.
    static func byteWidth(_ v: UInt64) -> Int {
        v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8
    }

    static func putUnsigned(_ v: UInt64, width: Int, into out: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
    }
}
