// Predicates print in the query language's expression syntax, so a printed predicate
// parses back to the same predicate. The exception is the engine's IN-set (a join's key
// filter), which has no syntax: with two keys or more it prints as `id in {1, 2, 3}` (at most
// `inSetKeysShown` keys, in the value order, then how many more) for plan labels; the
// query printer writes it as the equivalent OR of equalities.

extension Predicate: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .constant(b):
            return b ? "true" : "false"
        case let .comparison(l, op, r):
            return "\(l) \(op.rawValue) \(r)"
        case let .and(parts):
            if parts.isEmpty { return "true" }
            return parts.map { $0.parenthesizedUnlessAtomic }.joined(separator: " and ")
        case let .or(parts):
            if parts.isEmpty { return "false" }
            return parts.map { $0.parenthesizedUnlessAtomic }.joined(separator: " or ")
        case let .not(inner):
            return "not (\(inner))"
        case let .inSet(attributes, keys):
            // One key reads best (and parses back) as its equalities.
            if keys.count <= 1 { return expandingInSets.description }
            return Self.inSetDescription(attributes, keys)
        }
    }

    /// Keys of an IN-set printed in full; the rest are counted.
    public static let inSetKeysShown = 8

    private static func inSetDescription(_ attributes: [Attribute], _ keys: Set<Row>) -> String {
        let single = attributes.count == 1
        let names = single ? attributes[0].name : "(" + attributes.map(\.name).joined(separator: ", ") + ")"
        func key(_ row: Row) -> String {
            let values = row.values.map(\.description)
            return single && values.count == 1 ? values[0] : "(" + values.joined(separator: ", ") + ")"
        }
        let shown = keys.count <= inSetKeysShown ? keys.sorted() : Array(keys.sorted().prefix(inSetKeysShown))
        var text = shown.map(key).joined(separator: ", ")
        if keys.count > shown.count { text += ", … \(keys.count - shown.count) more" }
        return "\(names) in {\(text)}"
    }

    private var parenthesizedUnlessAtomic: String {
        switch self {
        case .and(let parts) where parts.count > 1: return "(\(self))"
        case .or(let parts) where parts.count > 1: return "(\(self))"
        default: return description
        }
    }
}
