/// The order of an ordered view: rows by the values of the chosen attributes, in the one
/// total order on values, with ties broken by the whole row in the same order. Rows of a
/// relation are distinct, so this is a strict total order on them.
public struct RowOrdering: Sendable {
    public let attributes: [Attribute]
    /// Positions of `attributes` in the scheme.
    public let keyPositions: [Int]
    /// Positions of every other attribute: what identifies a row whose sort key changed.
    public let restPositions: [Int]

    /// Fails naming the attribute when one of `attributes` is not in `scheme`, or repeats.
    public init(_ attributes: [Attribute], in scheme: Scheme) throws {
        guard !attributes.isEmpty else { throw OrderedViewError("no attribute to order by") }
        var positions: [Int] = []
        for attribute in attributes {
            guard let p = scheme.index(of: attribute) else {
                throw OrderedViewError("'\(attribute.name)' is not an attribute of \(scheme)")
            }
            guard !positions.contains(p) else {
                throw OrderedViewError("'\(attribute.name)' is named twice")
            }
            positions.append(p)
        }
        self.attributes = attributes
        self.keyPositions = positions
        self.restPositions = (0..<scheme.count).filter { !positions.contains($0) }
    }

    public func less(_ a: Row, _ b: Row) -> Bool {
        for p in keyPositions {
            let c = Value.compare(a.values[p], b.values[p])
            if c != 0 { return c < 0 }
        }
        return a < b
    }
}
