// Predicates print in the query language's expression syntax, so a printed predicate
// parses back to the same predicate.

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
        }
    }

    private var parenthesizedUnlessAtomic: String {
        switch self {
        case .and(let parts) where parts.count > 1: return "(\(self))"
        case .or(let parts) where parts.count > 1: return "(\(self))"
        default: return description
        }
    }
}
