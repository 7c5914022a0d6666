/// Attribute sets that no two rows of a relation share, in every state, inferred from the
/// keys declared on its sources. Conservative: an operator whose keys are not obvious gets
/// none, which only costs the derivation a cheaper rule.
public struct RelationKeys {
    /// Declared keys per source, by the source's identity.
    let declared: [ObjectIdentifier: [[Attribute]]]

    public init(declared: [ObjectIdentifier: [[Attribute]]]) { self.declared = declared }

    func keys(of relation: Relation) -> [Set<Attribute>] {
        switch relation.definition {
        case let .source(source):
            return (declared[ObjectIdentifier(source)] ?? []).map(Set.init)
        case let .apply(op, operands):
            switch op {
            case .select:
                return keys(of: operands[0])
            case let .project(kept):
                let attributes = Set(kept.attributes)
                return keys(of: operands[0]).filter { $0.isSubset(of: attributes) }
            case let .rename(map):
                return keys(of: operands[0]).map { Set($0.map { map[$0] ?? $0 }) }
            case .join:
                // A joined row holds one row of each operand, so a key of each together is one.
                let right = keys(of: operands[1])
                return keys(of: operands[0]).flatMap { l in right.map { l.union($0) } }
            case .union, .intersection, .difference, .closure:
                return []
            }
        }
    }

    /// Whether `relation` has a key made only of `attributes`.
    public func hasKey(_ relation: Relation, within attributes: Scheme) -> Bool {
        let kept = Set(attributes.attributes)
        return keys(of: relation).contains { $0.isSubset(of: kept) }
    }
}
