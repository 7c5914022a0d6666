import Relational

extension Operator {
    /// How a node's active parental filter is rewritten for one of its operands (seed 000),
    /// nil when it cannot be expressed there. Sound because the node may emit extra rows
    /// that fail the filter but never lose a row that passes it:
    /// - union, intersection, difference, select, project pass it unchanged (a select
    ///   passes the node's filter, not its own predicate, which a heuristic may add);
    /// - rename passes it with the attributes renamed back;
    /// - join passes it to a side only when that side has every attribute it reads.
    public func filter(_ filter: Predicate, forOperandWith operandScheme: Scheme) -> Predicate? {
        switch self {
        case .union, .intersection, .difference, .select, .project:
            return filter
        case let .rename(map):
            var inverse: [Attribute: Attribute] = [:]
            for (old, new) in map { inverse[new] = old }
            return filter.renamingAttributes(inverse)
        case .join:
            return filter.attributes.allSatisfy(operandScheme.contains) ? filter : nil
        }
    }
}
