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
        /// One attribute's value in a set: one hash lookup, no allocation.
        case valueIn(Int, Set<Value>)
        /// Several attributes' values, as a row, in a set of rows.
        case rowIn([Int], Set<Row>)
    }

    let root: Node
    public let predicate: Predicate

    public init(_ predicate: Predicate, scheme: Scheme) throws {
        self.predicate = predicate
        self.root = try Self.compile(predicate, scheme)
    }

    private static func compile(_ p: Predicate, _ scheme: Scheme) throws -> Node {
        // The context text is built only on failure: describing a large IN-set costs a sort.
        func position(_ a: Attribute) throws -> Int {
            if let i = scheme.index(of: a) { return i }
            return try scheme.requireIndex(of: a, context: "select (\(p))")
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
        case let .inSet(attributes, keys):
            let positions = try attributes.map(position)
            if let bad = keys.first(where: { $0.count != positions.count }) {
                throw RelationError.rowWidth(expected: positions.count, got: bad.count, relation: "IN-set key")
            }
            if keys.isEmpty { return .constant(false) }
            if positions.count == 1 { return .valueIn(positions[0], Set(keys.map { $0.values[0] })) }
            return .rowIn(positions, keys)
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
        case let .valueIn(i, set):
            return set.contains(values[i])
        case let .rowIn(positions, set):
            return set.contains(Row(positions.map { values[$0] }))
        }
    }
}

/// A row a predicate can be tested on without decoding it: compares one of its values (by
/// scheme position) with a constant in the total order, and decodes a value only when
/// asked. A column view implements it over a memory table's columns.
public protocol PredicateInput {
    /// `Value.compare(value at position, constant)`.
    func compare(_ position: Int, with constant: Value) -> Int
    func value(_ position: Int) -> Value
}

extension CompiledPredicate {
    /// Whether the predicate holds for the input (the same answer as `matches(_:)` on the
    /// decoded row).
    public func matches<Input: PredicateInput>(_ input: Input) -> Bool {
        Self.evaluate(root, input)
    }

    static func evaluate<Input: PredicateInput>(_ node: Node, _ input: Input) -> Bool {
        switch node {
        case let .constant(b):
            return b
        case let .attributeValue(i, op, v):
            return op.holds(forComparison: input.compare(i, with: v))
        case let .attributeAttribute(i, op, j):
            return op.holds(forComparison: Value.compare(input.value(i), input.value(j)))
        case let .and(parts):
            for part in parts where !evaluate(part, input) { return false }
            return true
        case let .or(parts):
            for part in parts where evaluate(part, input) { return true }
            return false
        case let .not(inner):
            return !evaluate(inner, input)
        case let .valueIn(i, set):
            return set.contains(input.value(i))
        case let .rowIn(positions, set):
            return set.contains(Row(positions.map { input.value($0) }))
        }
    }
}
