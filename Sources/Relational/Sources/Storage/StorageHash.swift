/// A value reduced to what equality sees, within one column: two values of a column are
/// equal exactly when their keys are equal. Integers and integral reals share kind 1 with
/// the integer as bits (so `3 == 3.0`, and both reals zero are 0); other reals are kind 2
/// with one bit pattern for every NaN; text and blobs are their codes in the column's
/// dictionaries (interned, so one code per distinct byte string).
struct ValueKey: Equatable, Sendable {
    var kind: UInt8
    var bits: Int64

    @inline(__always)
    init(kind: UInt8, bits: Int64) {
        self.kind = kind
        self.bits = bits
    }

    static let null = ValueKey(kind: ValueTag.null.rawValue, bits: 0)

    /// The key of a stored real (payload = IEEE bit pattern).
    @inline(__always)
    static func real(bits: Int64) -> ValueKey {
        let d = Double(bitPattern: UInt64(bitPattern: bits))
        if let exact = Int64(exactly: d) { return ValueKey(kind: ValueTag.integer.rawValue, bits: exact) }
        if d.isNaN { return ValueKey(kind: ValueTag.real.rawValue, bits: Int64(bitPattern: Double.nan.bitPattern)) }
        return ValueKey(kind: ValueTag.real.rawValue, bits: bits)
    }

    /// A well-mixed 64-bit hash (murmur3's finaliser over kind and bits).
    @inline(__always)
    var hash: UInt64 {
        StorageHash.mix(UInt64(bitPattern: bits) &+ UInt64(kind) &* 0x9E37_79B9_7F4A_7C15)
    }
}

/// Deterministic hashing for the storage tables (not Swift's per-process seeded `Hasher`:
/// these hashes never leave the process, but determinism keeps probe counts repeatable).
enum StorageHash {
    @inline(__always)
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        z = (z ^ (z >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return z ^ (z >> 33)
    }

    /// Folds one column's key hash into a row hash (order-sensitive).
    @inline(__always)
    static func combine(_ h: UInt64, _ keyHash: UInt64) -> UInt64 {
        ((h ^ keyHash) &* 0x9E37_79B9_7F4A_7C15).rotated(by: 29)
    }

    static let rowSeed: UInt64 = 0x2545_F491_4F6C_DD1D

    /// A hash of a byte string, 8 bytes at a time.
    static func bytes(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(buffer.count)
        var i = 0
        let n = buffer.count
        while i + 8 <= n {
            let word = buffer.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = ((h ^ word) &* 0x9E37_79B9_7F4A_7C15).rotated(by: 31)
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(buffer[i]) << shift
                shift += 8
                i += 1
            }
            h = ((h ^ tail) &* 0x9E37_79B9_7F4A_7C15).rotated(by: 31)
        }
        return mix(h)
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotated(by k: UInt64) -> UInt64 { (self << k) | (self >> (64 - k)) }
}
