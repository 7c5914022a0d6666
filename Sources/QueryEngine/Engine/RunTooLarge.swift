/// A run abandoned because its nodes emitted more rows than `QueryEngine.rowLimit`.
public struct RunTooLarge: Error, CustomStringConvertible {
    public let limit: Int
    public var description: String { "the run emitted more than \(limit) rows through its nodes and was stopped" }
}
