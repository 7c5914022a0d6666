/// A mistake in an experiment config: the file, the key path (`dataset.rows[1]`), the line
/// and column where the YAML library knows them, and what was expected. Printed as
/// `file:line:column: key path: message`, the way compilers report errors.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let keyPath: String
    public let line: Int?
    public let column: Int?
    public let message: String

    public init(file: String, keyPath: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        return keyPath.isEmpty ? "\(location): \(message)" : "\(location): \(keyPath): \(message)"
    }
}

/// A problem found while decoding or validating, before the file and line are known.
struct ConfigIssue: Error {
    let path: [String]
    let message: String

    init(_ path: [String], _ message: String) {
        self.path = path
        self.message = message
    }

    init(codingPath: [any CodingKey], _ message: String) {
        self.init(ConfigIssue.components(codingPath), message)
    }

    static func components(_ codingPath: [any CodingKey]) -> [String] {
        codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
    }

    /// `dataset.rows[1]`: names joined by dots, indexes in brackets.
    static func render(_ path: [String]) -> String {
        var out = ""
        for component in path {
            if component.hasPrefix("[") { out += component } else { out += out.isEmpty ? component : "." + component }
        }
        return out
    }
}
