/// Why an ordered view cannot be built or maintained.
public struct OrderedViewError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
