/// A mistake in query text, located by file, line and column. `description` reads
/// `file:line:column: message`, as compilers print it.
public struct QueryError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let position: SourcePosition
    public let message: String

    public init(file: String, position: SourcePosition, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    public var line: Int { position.line }
    public var column: Int { position.column }

    public var description: String { "\(file):\(position.line):\(position.column): \(message)" }
}
