/// A node of a lazy relational-algebra expression. Building one only checks schemes; rows
/// are computed when someone asks (the reference evaluator, the query engine, SQLite).
///
/// Identity matters: the same `Relation` object used by two parents is one shared node,
/// which is what the engine's subtree copying is about.
public final class Relation {
    /// What a relation is: a leaf whose rows live in a source, or an operator applied to
    /// operand relations.
    public enum Definition {
        case source(any SourceRelation)
        case apply(Operator, [Relation])
    }

    public let definition: Definition
    public let scheme: Scheme
    /// A name for plans and messages (`let` bindings in the query language set it).
    public var name: String?

    /// A relation whose rows live in a source (memory table, SQLite table, ...).
    public init(source: any SourceRelation) {
        definition = .source(source)
        scheme = source.scheme
        name = source.sourceName
    }

    /// `op` applied to `operands`; throws when the operands' schemes do not fit.
    public init(applying op: Operator, to operands: [Relation]) throws {
        scheme = try op.scheme(over: operands.map(\.scheme))
        definition = .apply(op, operands)
    }

    /// Operands in order (empty for sources).
    public var operands: [Relation] {
        switch definition {
        case .source: return []
        case let .apply(_, operands): return operands
        }
    }

    /// The operator, nil for sources.
    public var `operator`: Operator? {
        switch definition {
        case .source: return nil
        case let .apply(op, _): return op
        }
    }

    /// The source, nil for operator nodes.
    public var source: (any SourceRelation)? {
        switch definition {
        case let .source(s): return s
        case .apply: return nil
        }
    }

    /// A short label such as `source documents`, `union`, `select(id == 3)`.
    public var label: String {
        switch definition {
        case let .source(s): return "source \(s.sourceName)"
        case let .apply(op, _): return op.label
        }
    }
}
