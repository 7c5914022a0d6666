import FileSupport

/// A position in query text: 1-based line and column (columns count Unicode scalars).
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// The keywords of the query language; they cannot be used as plain identifiers (write
/// `` `select` `` to name an attribute `select`).
public let queryKeywords: Set<String> = [
    "let", "output", "relation", "union", "intersect", "minus", "join", "select", "project", "rename", "closure",
    "and", "or", "not", "null", "true", "false",
]

enum TokenKind: Equatable {
    case identifier(String)
    /// A back-quoted identifier: never a keyword.
    case quotedIdentifier(String)
    case keyword(String)
    case integer(Int64)
    case real(Double)
    case string(String)
    case blob([UInt8])
    /// Punctuation and operators: ( ) [ ] { } , = == != < <= > >= ->
    case symbol(String)
    case end
}

struct Token {
    let kind: TokenKind
    let position: SourcePosition
    /// The text as written, for messages.
    let text: String

    /// How messages name the token: `'select'`, `integer 3`, `end of input`.
    /// The token's text is escaped (a string or quoted name may hold control characters).
    var found: String {
        let shown = Printable.escaped(text)
        switch kind {
        case .end: return "end of input"
        case .identifier, .quotedIdentifier: return "name '\(shown)'"
        case .keyword: return "'\(shown)'"
        case .integer: return "integer \(shown)"
        case .real: return "number \(shown)"
        case .string: return "string \(shown)"
        case .blob: return "blob \(shown)"
        case .symbol: return "'\(shown)'"
        }
    }

    var identifierName: String? {
        switch kind {
        case let .identifier(name), let .quotedIdentifier(name): return name
        default: return nil
        }
    }

    func isKeyword(_ word: String) -> Bool { kind == .keyword(word) }
    func isSymbol(_ symbol: String) -> Bool { kind == .symbol(symbol) }
}
