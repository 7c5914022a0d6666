import Relational

/// Random select predicates over a scheme: comparisons of an attribute with a constant of
/// any class or with another attribute, combined with and/or/not, occasionally constant.
enum RandomPredicate {
    static func make(
        over scheme: Scheme, depth: Int = 2, domain: RandomValues.Domain = .small, _ random: inout VerificationRandom
    ) -> Predicate {
        let attributes = scheme.attributes
        guard !attributes.isEmpty else { return .constant(random.chance(0.5)) }
        let choice = depth <= 0 ? 0 : random.weighted([6, 2, 2, 1, 0])
        switch choice {
        case 1:
            return .and((0..<random.int(2...3)).map { _ in make(over: scheme, depth: depth - 1, domain: domain, &random) })
        case 2:
            return .or((0..<random.int(2...3)).map { _ in make(over: scheme, depth: depth - 1, domain: domain, &random) })
        case 3:
            return .not(make(over: scheme, depth: depth - 1, domain: domain, &random))
        default:
            if random.chance(0.04) { return .constant(random.chance(0.5)) }
            return comparison(attributes, domain: domain, &random)
        }
    }

    static func comparison(
        _ attributes: [Attribute], domain: RandomValues.Domain = .small, _ random: inout VerificationRandom
    ) -> Predicate {
        let op = random.element(of: ComparisonOperator.allCases) ?? .equal
        let left = random.element(of: attributes) ?? "a"
        let right: Term
        if attributes.count > 1 && random.chance(0.2) {
            right = .attribute(random.element(of: attributes.filter { $0 != left }) ?? left)
        } else {
            right = .value(random.chance(0.7)
                ? RandomValues.value(for: .smallIntegers, in: domain, &random) : RandomValues.anyValue(&random))
        }
        // Now and then the constant on the left, to exercise swapped comparisons.
        if case .value = right, random.chance(0.15) { return .comparison(right, op, .attribute(left)) }
        return .comparison(.attribute(left), op, right)
    }
}
