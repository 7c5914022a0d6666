// Position maps computed once per operator so per-row work is plain array indexing.

/// Output position `i` takes input position `positions[i]` (project and rename).
public struct ColumnMap: Sendable {
    public let positions: [Int]

    @inline(__always)
    public func apply(_ row: Row) -> Row { row.picking(positions) }

    public static func project(from input: Scheme, to output: Scheme) -> ColumnMap {
        ColumnMap(positions: output.attributes.map { input.index(of: $0)! })
    }

    /// For `rename`: each output attribute is found under its old name in the input.
    public static func rename(from input: Scheme, to output: Scheme, map: [Attribute: Attribute]) -> ColumnMap {
        var oldName: [Attribute: Attribute] = [:]
        for (old, new) in map { oldName[new] = old }
        return ColumnMap(positions: output.attributes.map { input.index(of: oldName[$0] ?? $0)! })
    }
}

/// Key positions on each side and how to assemble an output row from a matching pair.
public struct JoinLayout: Sendable {
    public let leftKey: [Int]
    public let rightKey: [Int]
    /// For each output position: (true = left, false = right, position in that side).
    let sources: [(fromLeft: Bool, position: Int)]

    public init(left: Scheme, right: Scheme, pairs: [JoinPair], output: Scheme) {
        leftKey = pairs.map { left.index(of: $0.left)! }
        rightKey = pairs.map { right.index(of: $0.right)! }
        sources = output.attributes.map { a in
            if let i = left.index(of: a) { return (true, i) }
            return (false, right.index(of: a)!)
        }
    }

    @inline(__always)
    public func leftKey(of row: Row) -> Row { row.picking(leftKey) }

    @inline(__always)
    public func rightKey(of row: Row) -> Row { row.picking(rightKey) }

    @inline(__always)
    public func combine(_ l: Row, _ r: Row) -> Row {
        var out = [Value]()
        out.reserveCapacity(sources.count)
        for s in sources { out.append(s.fromLeft ? l.values[s.position] : r.values[s.position]) }
        return Row(out)
    }
}
