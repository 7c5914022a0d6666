import Relational

// Select expressions. Precedence, loosest first: `or`, `and`, `not`, comparison.
//
//     expr       := conj ('or' conj)*
//     conj       := neg ('and' neg)*
//     neg        := 'not' neg | atom
//     atom       := '(' expr ')' | 'true' | 'false' | term op term
//     term       := name | literal
//     op         := '==' | '!=' | '<' | '<=' | '>' | '>='
//     literal    := integer | real | string | 'null' | blob | 'true' | 'false'
//
// `true` and `false` standing alone are the predicates that keep every row and none; as a
// literal (a comparison's operand, a value in a literal relation) they are the integers 1
// and 0, as in SQLite, since values have no boolean type.
// `and`/`or` chains are built with `Predicate.all`/`.any`, which flatten nesting.
// Parentheses and `not`s nest at most `QueryParser.nestingLimit` levels; `not (` is one.

extension QueryParser {
    /// Parses an expression; records each attribute mentioned with its token.
    mutating func parseExpression(_ attributes: inout [(Attribute, Token)]) throws -> Predicate {
        var parts = [try parseConjunction(&attributes)]
        while current.isKeyword("or") {
            advance()
            parts.append(try parseConjunction(&attributes))
        }
        return parts.count == 1 ? parts[0] : .any(parts)
    }

    private mutating func parseConjunction(_ attributes: inout [(Attribute, Token)]) throws -> Predicate {
        var parts = [try parseNegation(&attributes)]
        while current.isKeyword("and") {
            advance()
            parts.append(try parseNegation(&attributes))
        }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    private mutating func parseNegation(_ attributes: inout [(Attribute, Token)]) throws -> Predicate {
        if current.isKeyword("not") {
            let token = current
            advance()
            // `not (…)` is one level, its parenthesis's, as the printer writes every `not`;
            // so printed text never nests deeper than what was parsed.
            if current.isSymbol("(") { return .not(try parseNegation(&attributes)) }
            return try nested(at: token, "expression") { .not(try $0.parseNegation(&attributes)) }
        }
        return try parseAtom(&attributes)
    }

    private mutating func parseAtom(_ attributes: inout [(Attribute, Token)]) throws -> Predicate {
        if current.isSymbol("(") {
            return try nested(at: current, "expression") { parser in
                parser.advance()
                let inner = try parser.parseExpression(&attributes)
                try parser.expectSymbol(")", "to close the parenthesis")
                return inner
            }
        }
        if current.isKeyword("true") || current.isKeyword("false"), !startsComparison(following) {
            let value = current.isKeyword("true")
            try countConstant(at: current)
            advance()
            return .constant(value)
        }
        let left = try parseTerm(&attributes)
        let opToken = current
        guard case let .symbol(text) = opToken.kind, let op = ComparisonOperator(rawValue: text) else {
            if opToken.isSymbol("=") {
                throw error("expected a comparison operator, found '='; write '==' to compare", at: opToken)
            }
            throw expected("a comparison operator (== != < <= > >=)")
        }
        advance()
        let right = try parseTerm(&attributes)
        return .comparison(left, op, right)
    }

    private mutating func parseTerm(_ attributes: inout [(Attribute, Token)]) throws -> Term {
        let token = current
        if let name = token.identifierName {
            advance()
            attributes.append((Attribute(name), token))
            return .attribute(Attribute(name))
        }
        if isLiteralStart(token) { return .value(try parseLiteralValue()) }
        throw expected("an attribute name or a literal value")
    }

    private func isLiteralStart(_ token: Token) -> Bool {
        switch token.kind {
        case .integer, .real, .string, .blob: return true
        case .keyword("null"), .keyword("true"), .keyword("false"): return true
        default: return false
        }
    }

    /// Whether `token` is a comparison operator, so that a `true` before it is a value.
    private func startsComparison(_ token: Token) -> Bool {
        guard case let .symbol(text) = token.kind else { return false }
        return ComparisonOperator(rawValue: text) != nil || text == "="
    }

    /// A literal value: integer, real, string, `null`, blob, or `true`/`false` (1 and 0).
    /// Each counts towards `constantLimit`.
    mutating func parseLiteralValue() throws -> Value {
        let token = current
        let value: Value
        switch token.kind {
        case let .integer(i): value = .integer(i)
        case let .real(d): value = .real(d)
        case let .string(s): value = .text(s)
        case let .blob(b): value = .blob(b)
        case .keyword("null"): value = .null
        case .keyword("true"): value = .integer(1)
        case .keyword("false"): value = .integer(0)
        default: throw expected("a literal value (number, \"string\", null, true, false or x'hex')")
        }
        try countConstant(at: token)
        advance()
        return value
    }
}
