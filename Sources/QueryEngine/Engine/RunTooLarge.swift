/// A run abandoned because its nodes emitted more rows than `QueryEngine.rowLimit`.
public struct RunTooLarge: Error, CustomStringConvertible {
    public let limit: Int
    /// The rows the run's nodes had emitted when it stopped (the last delivery's included).
    public var emitted = 0
    public var description: String { "the run emitted more than \(limit) rows through its nodes and was stopped" }
}
