import Relational

extension Operator {
    /// How a node's active parental filter is rewritten for one of its operands (seed 000),
    /// nil when it cannot be expressed there. Sound because the node may emit extra rows
    /// that fail the filter but never lose a row that passes it:
    /// - union, intersection, difference, select, project pass it unchanged (a select
    ///   passes the node's filter, not its own predicate, which a heuristic may add);
    /// - rename passes it with the attributes renamed back;
    /// - join passes it to a side only when that side has every attribute it reads;
    /// - closure passes nothing: the pairs from a start value need edges from every value
    ///   reachable from it, which no filter known ahead of the run describes (the
    ///   `closure-seeding` heuristic asks for them round by round instead).
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
        case .closure:
            return nil
        }
    }
}
