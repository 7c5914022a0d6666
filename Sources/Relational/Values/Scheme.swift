/// The set of attributes of a relation, held sorted by name. A row of the relation stores
/// its values at the same positions, so rows carry no attribute names of their own.
public struct Scheme: Hashable, Sendable, CustomStringConvertible {
    public let attributes: [Attribute]

    /// Builds a scheme; throws if an attribute is named twice.
    public init(_ attributes: [Attribute]) throws {
        let sorted = attributes.sorted()
        for (a, b) in zip(sorted, sorted.dropFirst()) where a == b {
            throw RelationError.duplicateAttribute(a)
        }
        self.attributes = sorted
    }

    /// Builds a scheme from names known to be distinct (internal use).
    init(uniqueSorted attributes: [Attribute]) {
        self.attributes = attributes
    }

    public var count: Int { attributes.count }

    /// For names written in `columns` order (distinct, as a scheme's), the position in
    /// `columns` of each name in sorted order: a row given as `values` in `columns` order is
    /// `order.map { values[$0] }` in scheme order. A sort of the positions, n log n
    /// comparisons; finding each name by a linear search was quadratic in the width (an
    /// empty literal of 100,000 attributes took 32 s to load).
    public static func sortingOrder<Name: Comparable>(of columns: [Name]) -> [Int] {
        columns.indices.sorted { columns[$0] < columns[$1] }
    }

    public func contains(_ attribute: Attribute) -> Bool { index(of: attribute) != nil }

    /// Position of an attribute in rows of this scheme (binary search; schemes are short).
    public func index(of attribute: Attribute) -> Int? {
        var low = 0
        var high = attributes.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let candidate = attributes[mid]
            if candidate == attribute { return mid }
            if candidate < attribute { low = mid + 1 } else { high = mid - 1 }
        }
        return nil
    }

    /// Position of an attribute, or an error naming it and the scheme. The context is built
    /// only for the error: callers describe whole predicates in it (`select (\(predicate))`),
    /// and a translation asks once per attribute reference, so a select of 100,000 `or`ed
    /// comparisons built 200,000 descriptions of itself (minutes on `query --engine sqlite`).
    public func requireIndex(of attribute: Attribute, context: @autoclosure () -> String) throws -> Int {
        guard let index = index(of: attribute) else {
            throw RelationError.unknownAttribute(attribute, scheme: self, context: context())
        }
        return index
    }

    public var description: String {
        "[" + attributes.map(\.name).joined(separator: ", ") + "]"
    }

    /// The description for a message: past `limit` attributes the rest are counted, not
    /// listed (a 100,000-column table's unknown-attribute message ran to 789 KB).
    public func listed(atMost limit: Int = 40) -> String {
        "[" + Self.listing(attributes.map(\.name), atMost: limit) + "]"
    }

    /// Names joined for a message, past `limit` the rest counted: `a, b, and 3 more`.
    public static func listing(_ names: [String], atMost limit: Int = 40) -> String {
        guard names.count > limit else { return names.joined(separator: ", ") }
        return names.prefix(limit).joined(separator: ", ") + ", and \(names.count - limit) more"
    }
}
