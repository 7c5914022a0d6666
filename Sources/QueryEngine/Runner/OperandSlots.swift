import Relational

/// Per-operand state of one node that allocates nothing until it is first written: most
/// nodes of a small query are sources (no operands) or are never given a filter, and an
/// array made per node per run (`Array(repeating:count:)` goes through the standard
/// library's unspecialized allocation, about 600 instructions) was a visible part of a
/// prepared run's fixed cost.
struct OperandFilters {
    private var slots: [Predicate?] = []
    let count: Int

    init(count: Int) { self.count = count }

    subscript(operand: Int) -> Predicate? {
        get { operand < slots.count ? slots[operand] : nil }
        set {
            if slots.isEmpty {
                guard newValue != nil else { return }
                slots.reserveCapacity(count)
                for _ in 0..<count { slots.append(nil) }
            }
            slots[operand] = newValue
        }
    }

    /// No filter on any operand again, keeping the slots for the next run (set to nil in
    /// place: `removeAll(keepingCapacity:)` takes the array's generic range replacement,
    /// about 1,400 instructions a call).
    mutating func removeAll() {
        guard !slots.isEmpty else { return }
        slots.withUnsafeMutableBufferPointer { slots in
            for i in slots.indices { slots[i] = nil }
        }
    }
}

/// Which operands have completed, as bits (an overflow array past 64 operands, which only
/// wide unions reach).
struct OperandFlags {
    private var low: UInt64 = 0
    private var high: [Bool] = []
    let count: Int

    init(count: Int) { self.count = count }

    subscript(operand: Int) -> Bool {
        get {
            if operand < 64 { return low & (1 << UInt64(operand)) != 0 }
            return operand - 64 < high.count ? high[operand - 64] : false
        }
        set {
            if operand < 64 {
                if newValue { low |= 1 << UInt64(operand) } else { low &= ~(1 << UInt64(operand)) }
                return
            }
            if high.isEmpty { high = Array(repeating: false, count: count - 64) }
            high[operand - 64] = newValue
        }
    }

    /// True when every operand has completed (vacuously for none).
    var all: Bool {
        let lowCount = min(count, 64)
        let lowMask: UInt64 = lowCount == 64 ? ~0 : (1 << UInt64(lowCount)) - 1
        guard low & lowMask == lowMask else { return false }
        return count <= 64 || (high.count == count - 64 && high.allSatisfy { $0 })
    }
}
