/// One tuple: values by position against a scheme held by the relation, not by the row.
public struct Row: Hashable, Comparable, Sendable {
    public var values: [Value]

    public init(_ values: [Value]) { self.values = values }

    public subscript(position: Int) -> Value { values[position] }

    public var count: Int { values.count }

    /// Lexicographic order in the value order: the stable order used for printing.
    public static func < (lhs: Row, rhs: Row) -> Bool {
        for (a, b) in zip(lhs.values, rhs.values) {
            let c = Value.compare(a, b)
            if c != 0 { return c < 0 }
        }
        return lhs.values.count < rhs.values.count
    }

    /// The values at the given positions, in that order.
    @inline(__always)
    public func picking(_ positions: [Int]) -> Row {
        var out = [Value]()
        out.reserveCapacity(positions.count)
        for p in positions { out.append(values[p]) }
        return Row(out)
    }
}

extension Row: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Value...) { self.values = elements }
}
