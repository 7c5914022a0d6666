/// The oracle's predicate interpreter: a plain recursive walk over `Predicate` for one row,
/// looking attributes up by name and comparing with `ReferenceOrder`. It shares nothing
/// with `CompiledPredicate`, which the engine and memory tables use.
enum ReferencePredicate {
    static func holds(_ predicate: Predicate, _ row: Row, _ scheme: Scheme) throws -> Bool {
        switch predicate {
        case let .constant(b):
            return b
        case let .comparison(left, op, right):
            let c = ReferenceOrder.compare(try value(left, row, scheme), try value(right, row, scheme))
            switch op {
            case .equal: return c == 0
            case .notEqual: return c != 0
            case .less: return c < 0
            case .lessOrEqual: return c <= 0
            case .greater: return c > 0
            case .greaterOrEqual: return c >= 0
            }
        case let .and(parts):
            for part in parts where !(try holds(part, row, scheme)) { return false }
            return true
        case let .or(parts):
            for part in parts where try holds(part, row, scheme) { return true }
            return false
        case let .not(inner):
            return !(try holds(inner, row, scheme))
        case let .inSet(attributes, keys):
            // The OR over the keys of the AND of equalities, by a plain scan: the engine's
            // hash lookup (and `Value`'s hashing) plays no part.
            let values = try attributes.map { try value(.attribute($0), row, scheme) }
            return keys.contains { key in
                key.count == values.count && zip(key.values, values).allSatisfy { ReferenceOrder.compare($0, $1) == 0 }
            }
        }
    }

    private static func value(_ term: Term, _ row: Row, _ scheme: Scheme) throws -> Value {
        switch term {
        case let .value(v):
            return v
        case let .attribute(a):
            guard let i = scheme.attributes.firstIndex(where: { $0.name == a.name }) else {
                throw RelationError.unknownAttribute(a, scheme: scheme, context: "select")
            }
            return row[i]
        }
    }
}
