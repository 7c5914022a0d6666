/// The name of a column. Schemes keep attributes sorted by name, so two relations with the
/// same attributes store their values in the same positions.
public struct Attribute: Hashable, Comparable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral value: String) { self.name = value }

    public static func < (lhs: Attribute, rhs: Attribute) -> Bool { lhs.name < rhs.name }
    public var description: String { name }
}
