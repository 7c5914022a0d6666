/// A predicate bound to a scheme: attribute names resolved to row positions once, so
/// testing a row does no name lookups.
public struct CompiledPredicate: Sendable {
    indirect enum Node: Sendable {
        case constant(Bool)
        case attributeValue(Int, ComparisonOperator, Value)
        case attributeAttribute(Int, ComparisonOperator, Int)
        case and([Node])
        case or([Node])
        case not(Node)
    }

    let root: Node
    public let predicate: Predicate

    public init(_ predicate: Predicate, scheme: Scheme) throws {
        self.predicate = predicate
        self.root = try Self.compile(predicate, scheme)
    }

    private static func compile(_ p: Predicate, _ scheme: Scheme) throws -> Node {
        func position(_ a: Attribute) throws -> Int {
            try scheme.requireIndex(of: a, context: "select (\(p))")
        }
        switch p {
        case let .constant(b):
            return .constant(b)
        case let .comparison(.attribute(a), op, .value(v)):
            return .attributeValue(try position(a), op, v)
        case let .comparison(.value(v), op, .attribute(a)):
            return .attributeValue(try position(a), op.swapped, v)
        case let .comparison(.attribute(a), op, .attribute(b)):
            return .attributeAttribute(try position(a), op, try position(b))
        case let .comparison(.value(a), op, .value(b)):
            return .constant(op.holds(forComparison: Value.compare(a, b)))
        case let .and(parts):
            return .and(try parts.map { try compile($0, scheme) })
        case let .or(parts):
            return .or(try parts.map { try compile($0, scheme) })
        case let .not(inner):
            return .not(try compile(inner, scheme))
        }
    }

    @inline(__always)
    public func matches(_ row: Row) -> Bool {
        Self.evaluate(root, row.values)
    }

    private static func evaluate(_ node: Node, _ values: [Value]) -> Bool {
        switch node {
        case let .constant(b):
            return b
        case let .attributeValue(i, op, v):
            return op.holds(forComparison: Value.compare(values[i], v))
        case let .attributeAttribute(i, op, j):
            return op.holds(forComparison: Value.compare(values[i], values[j]))
        case let .and(parts):
            for part in parts where !evaluate(part, values) { return false }
            return true
        case let .or(parts):
            for part in parts where evaluate(part, values) { return true }
            return false
        case let .not(inner):
            return !evaluate(inner, values)
        }
    }
}
