import FileSupport

/// Splits query text into tokens, after `SourceText.normalized` (no BOM, LF line ends).
/// `#` starts a comment to the end of the line. Strings are double-quoted with escapes
/// `\" \\ \n \t \r \u{hex}`; blobs are `x'00ff'`; numbers are `42`, `-7`, `2.5`, `1e-07`
/// (reals must be finite); back-quoted identifiers may hold any character except a back
/// quote (write two for one).
struct Lexer {
    private let scalars: [Unicode.Scalar]
    private let file: String
    private var index = 0
    private var line = 1
    private var column = 1

    init(_ text: String, file: String) {
        self.scalars = Array(SourceText.normalized(text).unicodeScalars)
        self.file = file
    }

    static func tokens(_ text: String, file: String) throws -> [Token] {
        var lexer = Lexer(text, file: file)
        var out: [Token] = []
        while true {
            let token = try lexer.next()
            out.append(token)
            if token.kind == .end { return out }
        }
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance() {
        if current == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private func error(_ message: String, at position: SourcePosition) -> QueryError {
        QueryError(file: file, position: position, message: message)
    }

    private func text(from start: Int) -> String {
        var s = ""
        s.unicodeScalars.append(contentsOf: scalars[start..<index])
        return s
    }

    /// Text is decoded with U+FFFD standing for bytes that are not UTF-8, so that scalar is
    /// refused wherever it stands, comments and strings included (`\u{fffd}` still spells it).
    private func notUTF8(at position: SourcePosition) -> QueryError {
        error("bytes that are not UTF-8 text; query text must be UTF-8", at: position)
    }

    private var here: SourcePosition { SourcePosition(line: line, column: column) }

    private mutating func skipSpaceAndComments() throws {
        while let c = current {
            if c == "#" {
                while let d = current, d != "\n" {
                    if d == "\u{FFFD}" { throw notUTF8(at: here) }
                    advance()
                }
            } else if c == " " || c == "\t" || c == "\n" || c == "\r" {
                advance()
            } else {
                return
            }
        }
    }

    mutating func next() throws -> Token {
        try skipSpaceAndComments()
        let position = SourcePosition(line: line, column: column)
        let start = index
        guard let c = current else { return Token(kind: .end, position: position, text: "") }

        if c == "x" && peek(1) == "'" { return try blob(position, start) }
        if isIdentifierStart(c) {
            while let d = current, isIdentifierStart(d) || isDigit(d) { advance() }
            let word = text(from: start)
            return Token(kind: queryKeywords.contains(word) ? .keyword(word) : .identifier(word), position: position, text: word)
        }
        if isDigit(c) || (c == "-" && peek(1).map(isDigit) == true) { return try number(position, start) }
        switch c {
        case "\"": return try string(position, start)
        case "`": return try quotedIdentifier(position, start)
        case "(", ")", "[", "]", "{", "}", ",":
            advance()
            return Token(kind: .symbol(String(c)), position: position, text: String(c))
        case "=", "!", "<", ">", "-":
            advance()
            var symbol = String(c)
            if current == "=" && c != "-" {
                advance()
                symbol += "="
            } else if c == "-" && current == ">" {
                advance()
                symbol = "->"
            }
            if symbol == "!" || symbol == "-" {
                throw error("unexpected '\(symbol)'; expected '!=' or '->' or a number", at: position)
            }
            return Token(kind: .symbol(symbol), position: position, text: symbol)
        case "\u{FFFD}":
            throw notUTF8(at: position)
        default:
            throw error("unexpected character \(Printable.quoted(String(c)))", at: position)
        }
    }

    private func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_"
    }

    private func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }

    private mutating func number(_ position: SourcePosition, _ start: Int) throws -> Token {
        if current == "-" { advance() }
        var isReal = false
        while let d = current, isDigit(d) { advance() }
        if current == ".", let d = peek(1), isDigit(d) {
            isReal = true
            advance()
            while let d = current, isDigit(d) { advance() }
        }
        if current == "e" || current == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if let d = peek(signed ? 2 : 1), isDigit(d) {
                isReal = true
                advance()
                if signed { advance() }
                while let d = current, isDigit(d) { advance() }
            }
        }
        let literal = text(from: start)
        if let c = current, isIdentifierStart(c) {
            throw error("malformed number \(Printable.quoted(literal + String(c)))", at: position)
        }
        if isReal {
            guard let d = Double(literal) else { throw error("malformed number '\(literal)'", at: position) }
            // Double's parser saturates to infinity, which no literal can spell back.
            guard d.isFinite else {
                throw error("number \(literal) is out of range; a real must be finite (magnitude at most \(Double.greatestFiniteMagnitude))", at: position)
            }
            return Token(kind: .real(d), position: position, text: literal)
        }
        guard let i = Int64(literal) else {
            throw error("integer \(literal) does not fit in 64 bits", at: position)
        }
        return Token(kind: .integer(i), position: position, text: literal)
    }

    private mutating func string(_ position: SourcePosition, _ start: Int) throws -> Token {
        advance()
        var value = ""
        while true {
            guard let c = current, c != "\n" else {
                throw error("unterminated string; expected a closing '\"' before the end of the line", at: position)
            }
            if c == "\"" {
                advance()
                return Token(kind: .string(value), position: position, text: text(from: start))
            }
            if c == "\\" {
                let escapePosition = SourcePosition(line: line, column: column)
                advance()
                switch current {
                case "\"": value += "\""
                case "\\": value += "\\"
                case "n": value += "\n"
                case "t": value += "\t"
                case "r": value += "\r"
                case "u": value.unicodeScalars.append(try unicodeEscape(escapePosition))
                default:
                    let shown = current.map { Printable.escaped(String($0)) } ?? "end of input"
                    throw error("unknown escape '\\\(shown)' in string; expected one of \\\" \\\\ \\n \\t \\r \\u{...}", at: escapePosition)
                }
                advance()
            } else {
                if c == "\u{FFFD}" { throw notUTF8(at: here) }
                value.unicodeScalars.append(c)
                advance()
            }
        }
    }

    /// `\u{hex}`; leaves the index on the closing brace.
    private mutating func unicodeEscape(_ position: SourcePosition) throws -> Unicode.Scalar {
        advance()
        guard current == "{" else { throw error("expected '{' after \\u", at: position) }
        advance()
        var digits = ""
        while let c = current, c != "}" && c != "\"" && c != "\n" {
            digits.unicodeScalars.append(c)
            advance()
        }
        guard current == "}", (1...6).contains(digits.unicodeScalars.count), let code = UInt32(digits, radix: 16),
              let scalar = Unicode.Scalar(code) else {
            throw error("malformed \\u{...} escape; expected 1 to 6 hex digits naming a Unicode scalar", at: position)
        }
        return scalar
    }

    private mutating func quotedIdentifier(_ position: SourcePosition, _ start: Int) throws -> Token {
        advance()
        var name = ""
        while true {
            guard let c = current, c != "\n" else {
                throw error("unterminated quoted name; expected a closing '`'", at: position)
            }
            if c == "\u{FFFD}" { throw notUTF8(at: here) }
            advance()
            if c == "`" {
                if current == "`" {
                    name += "`"
                    advance()
                    continue
                }
                guard !name.isEmpty else { throw error("empty quoted name ``", at: position) }
                return Token(kind: .quotedIdentifier(name), position: position, text: text(from: start))
            }
            name.unicodeScalars.append(c)
        }
    }

    private mutating func blob(_ position: SourcePosition, _ start: Int) throws -> Token {
        advance()
        advance()
        var bytes: [UInt8] = []
        var pending: UInt8?
        while true {
            guard let c = current, c != "\n" else {
                throw error("unterminated blob; expected a closing \"'\"", at: position)
            }
            advance()
            if c == "'" { break }
            guard let nibble = hexValue(c) else {
                throw error("\(Printable.quoted(String(c))) is not a hex digit in blob", at: SourcePosition(line: line, column: column - 1))
            }
            if let high = pending {
                bytes.append(high << 4 | nibble)
                pending = nil
            } else {
                pending = nibble
            }
        }
        if pending != nil { throw error("blob has an odd number of hex digits", at: position) }
        return Token(kind: .blob(bytes), position: position, text: text(from: start))
    }

    private func hexValue(_ c: Unicode.Scalar) -> UInt8? {
        switch c {
        case "0"..."9": return UInt8(c.value - 48)
        case "a"..."f": return UInt8(c.value - 87)
        case "A"..."F": return UInt8(c.value - 55)
        default: return nil
        }
    }
}
