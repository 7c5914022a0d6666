import FileSupport

/// A property-list store failure, naming the file or directory it concerns: a file that
/// cannot be read or written, bytes that are not a property list, or a property list that
/// does not hold what the relation expects (`path: what`).
public struct PlistError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let problem: String

    public init(_ path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(Printable.quoted(path)): \(problem)" }
}
