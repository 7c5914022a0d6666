/// Errors raised while building or evaluating relations. Each message names the
/// attributes involved so the caller can find the mistake.
public enum RelationError: Error, Equatable, CustomStringConvertible {
    case duplicateAttribute(Attribute)
    case unknownAttribute(Attribute, scheme: Scheme, context: String)
    case schemeMismatch(operation: String, left: Scheme, right: Scheme)
    case renameCollision(from: Attribute, to: Attribute, scheme: Scheme)
    /// Two attributes renamed to the same new name.
    case renameMerge(Attribute, Attribute, to: Attribute, scheme: Scheme)
    case ambiguousJoinAttributes([Attribute])
    case rowWidth(expected: Int, got: Int, relation: String)
    case unsupported(String)

    public var description: String {
        switch self {
        case let .duplicateAttribute(a):
            return "attribute '\(a)' appears more than once"
        case let .unknownAttribute(a, scheme, context):
            return "\(context): unknown attribute '\(a)'; the relation has \(scheme.listed())"
        case let .schemeMismatch(operation, left, right):
            return "\(operation) needs operands with the same scheme, got \(left) and \(right)"
        case let .renameCollision(from, to, scheme):
            return "rename '\(from)' -> '\(to)' collides with existing attribute '\(to)' in \(scheme)"
        case let .renameMerge(a, b, to, scheme):
            return "rename: '\(a)' and '\(b)' are both renamed to '\(to)' in \(scheme)"
        case let .ambiguousJoinAttributes(attributes):
            let names = Scheme.listing(attributes.map { "'\($0)'" })
            return "join: both operands have \(names) but the join does not match them; "
                + "rename one side or add them to the matching"
        case let .rowWidth(expected, got, relation):
            return "\(relation): row has \(got) values but the scheme has \(expected) attributes"
        case let .unsupported(message):
            return message
        }
    }
}
