/// A change that was refused before anything was applied: a row that does not fit, a key
/// clash, an update that would merge rows, or a write to a derived relation that cannot be
/// traced back to its source rows unambiguously. `description` says which and why.
public struct ChangeError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
