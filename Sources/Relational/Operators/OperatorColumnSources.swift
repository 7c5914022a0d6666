/// Where one result column of an operator application comes from: an operand (by index)
/// and a position in that operand's scheme.
public struct ColumnSource: Hashable, Sendable {
    public let operand: Int
    public let position: Int

    public init(operand: Int, position: Int) {
        self.operand = operand
        self.position = position
    }
}

extension Operator {
    /// Where each of `result`'s columns comes from, in `result`'s order, given the operands'
    /// schemes: for project, rename and join the column each picks (a join's attribute is
    /// the left operand's when both have it); for the others the column at the same
    /// position of the first operand (of each operand, for union, intersection and
    /// difference). The SQL translators build their select lists and column types from it.
    /// Throws, naming the operator, when an operand lacks an attribute the result needs.
    public func columnSources(of operands: [Scheme], result: Scheme) throws -> [ColumnSource] {
        switch self {
        case .project:
            return try result.attributes.map {
                ColumnSource(operand: 0, position: try operands[0].requireIndex(of: $0, context: "project"))
            }
        case let .rename(map):
            var oldName: [Attribute: Attribute] = [:]
            for (old, new) in map { oldName[new] = old }
            return try result.attributes.map {
                ColumnSource(operand: 0, position: try operands[0].requireIndex(of: oldName[$0] ?? $0, context: "rename"))
            }
        case .join:
            return try result.attributes.map { attribute in
                if let i = operands[0].index(of: attribute) { return ColumnSource(operand: 0, position: i) }
                return ColumnSource(operand: 1, position: try operands[1].requireIndex(of: attribute, context: "join"))
            }
        case .union, .intersection, .difference, .select, .closure:
            return result.attributes.indices.map { ColumnSource(operand: 0, position: $0) }
        }
    }
}
