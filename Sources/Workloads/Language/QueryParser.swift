import FileSupport
import Relational

/// Recursive-descent parser from query text straight to a relation graph.
///
///     program    := statement+                      (at least one `output`)
///     statement  := 'let' name '=' rel
///                 | 'output' [name '='] rel
///     rel        := inter (('union' | 'minus') inter)*          left-associative
///     inter      := joined ('intersect' joined)*                left-associative
///     joined     := postfix ('join' ['[' pair (',' pair)* ']'] postfix)*
///     pair       := name '=' name                   (left operand's, right operand's)
///     postfix    := primary ('select' '(' expr ')' | 'project' '[' names ']'
///                           | 'rename' '[' name '->' name (',' ...)* ']'
///                           | 'closure' '[' name '->' name ']')*
///     primary    := name | '(' rel ')' | 'relation' '[' names ']' '{' [tuple (',' tuple)*] '}'
///     tuple      := '(' [literal (',' literal)*] ')'
///
/// Precedence, tightest first: postfix operators, `join`, `intersect`, then `union` and
/// `minus` (equal, left to right), so `pets union added minus removed` is
/// `(pets union added) minus removed` and `a join b select (p)` selects on `b` only.
///
/// Limits keep hostile or generated text from exhausting the stack, here or later in the
/// recursive planner, evaluators and printer: parentheses and `not` nest at most
/// `nestingLimit` levels (relations and select expressions counted together), and no
/// relation has more than `operatorDepthLimit` operators applied on top of each other,
/// counting through `let` names, postfix chains and binary chains alike. One query text
/// holds at most `constantLimit` constants (values of literal relations, constants in
/// select expressions, `true`/`false`): the SQLite backend binds each as a parameter, and
/// SQLite refuses a statement with more than 32,766, which would otherwise surface only
/// mid-run.
struct QueryParser {
    static let nestingLimit = 200
    static let operatorDepthLimit = 2000
    static let constantLimit = 10_000

    private let tokens: [Token]
    private let file: String
    let catalog: RelationCatalog
    private var position = 0
    private var bindings: [String: Relation] = [:]
    private var bindingPositions: [String: SourcePosition] = [:]
    /// Where each named output was named: a change script's `update NAME` and the result
    /// tables find an output by its name, so two outputs, a let or a table may not share one.
    private var outputPositions: [String: SourcePosition] = [:]
    /// Parentheses and `not`s open around the current token.
    private var nesting = 0
    /// Operators on the longest path from each relation built here down to a source;
    /// tables and literal relations are absent (depth 0). The entry holds its relation, so
    /// a freed relation's address cannot be reused for a stale depth.
    private var operatorDepth: [ObjectIdentifier: (relation: Relation, depth: Int)] = [:]
    /// Constants read so far (see `constantLimit`).
    private var constants = 0
    /// What `constantLimit` bounds: the whole query text, or (`startChangeStatement`) one
    /// statement of a change script.
    private var constantScope = ConstantScope.query

    init(text: String, file: String, catalog: RelationCatalog) throws {
        self.tokens = try Lexer.tokens(text, file: file)
        self.file = file
        self.catalog = catalog
    }

    // MARK: Token helpers

    var current: Token { tokens[position] }

    /// The token after the current one (the end token at the end).
    var following: Token { tokens[min(position + 1, tokens.count - 1)] }

    mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    func error(_ message: String, at token: Token) -> QueryError {
        QueryError(file: file, position: token.position, message: message)
    }

    func expected(_ what: String) -> QueryError {
        error("expected \(what), found \(current.found)", at: current)
    }

    mutating func expectSymbol(_ symbol: String, _ context: String = "") throws {
        guard current.isSymbol(symbol) else {
            throw expected("'\(symbol)'" + (context.isEmpty ? "" : " \(context)"))
        }
        advance()
    }

    /// A name (identifier or back-quoted) and its token.
    mutating func expectName(_ what: String) throws -> (String, Token) {
        let token = current
        guard let name = token.identifierName else {
            if case let .keyword(word) = token.kind {
                throw error("expected \(what), found keyword '\(word)' (write `\(word)` to use it as a name)", at: token)
            }
            throw expected(what)
        }
        advance()
        return (name, token)
    }

    // MARK: Statements

    mutating func parseProgram() throws -> Query {
        var outputs: [QueryOutput] = []
        while current.kind != .end {
            if current.isKeyword("let") {
                try parseLet()
            } else if current.isKeyword("output") {
                outputs.append(try parseOutput())
            } else {
                throw expected("'let' or 'output'")
            }
        }
        guard !outputs.isEmpty else {
            throw error("expected at least one 'output' statement, found end of input", at: current)
        }
        return Query(outputs: outputs, bindings: bindings)
    }

    private mutating func parseLet() throws {
        advance()
        let (name, token) = try expectName("a name to bind after 'let'")
        if let earlier = bindingPositions[name] {
            throw error("\(Printable.quoted(name)) is already bound by the let at line \(earlier.line); choose another name", at: token)
        }
        if catalog[name] != nil {
            throw error("\(Printable.quoted(name)) is a table name; a let may not hide it", at: token)
        }
        if let earlier = outputPositions[name] {
            throw error("\(Printable.quoted(name)) already names the output at line \(earlier.line); choose another name", at: token)
        }
        try expectSymbol("=", "after 'let \(Printable.escaped(name))'")
        let relation = try parseRelation()
        if relation.name == nil || isLiteral(relation) { relation.name = name }
        bindings[name] = relation
        bindingPositions[name] = token.position
    }

    private mutating func parseOutput() throws -> QueryOutput {
        advance()
        var name: String?
        if let outputName = current.identifierName, following.isSymbol("=") {
            try checkOutputName(outputName, at: current)
            outputPositions[outputName] = current.position
            name = outputName
            advance()
            advance()
        }
        let relation = try parseRelation()
        if let name, relation.name == nil { relation.name = name }
        return QueryOutput(name: name, relation: relation)
    }

    /// An output's name is its own: not another output's, a let's or a table's (a change
    /// script naming it would otherwise change one of them without a word).
    private func checkOutputName(_ name: String, at token: Token) throws {
        if let earlier = outputPositions[name] {
            throw error("\(Printable.quoted(name)) already names the output at line \(earlier.line); choose another name", at: token)
        }
        if let earlier = bindingPositions[name] {
            throw error("\(Printable.quoted(name)) is bound by the let at line \(earlier.line); an output may not take its name", at: token)
        }
        if catalog[name] != nil {
            throw error("\(Printable.quoted(name)) is a table name; an output may not take it", at: token)
        }
    }

    private func isLiteral(_ relation: Relation) -> Bool {
        guard let s = relation.source else { return false }
        return catalog.name(of: relation) == nil && s is MemoryTable && relation.name == "literal"
    }

    // MARK: Relation expressions

    mutating func parseRelation() throws -> Relation {
        var left = try parseIntersection()
        while current.isKeyword("union") || current.isKeyword("minus") {
            let op = current
            advance()
            let right = try parseIntersection()
            left = try build(at: op) {
                op.isKeyword("union") ? try left.union(right) : try left.difference(right)
            }
        }
        return left
    }

    private mutating func parseIntersection() throws -> Relation {
        var left = try parseJoin()
        while current.isKeyword("intersect") {
            let op = current
            advance()
            let right = try parseJoin()
            left = try build(at: op) { try left.intersection(right) }
        }
        return left
    }

    private mutating func parseJoin() throws -> Relation {
        var left = try parsePostfix()
        while current.isKeyword("join") {
            let op = current
            advance()
            var pairs: [(JoinPair, Token, Token)]?
            if current.isSymbol("[") {
                advance()
                var list: [(JoinPair, Token, Token)] = []
                var given: Set<JoinPair> = []
                repeat {
                    if !list.isEmpty { advance() }
                    let (l, lt) = try expectName("an attribute of the left operand")
                    try expectSymbol("=", "between the attributes of a join pair")
                    let (r, rt) = try expectName("an attribute of the right operand")
                    if !given.insert(JoinPair(Attribute(l), Attribute(r))).inserted {
                        throw error("the join pair \(Printable.quoted(l + " = " + r)) is given twice; give each pair once", at: lt)
                    }
                    list.append((JoinPair(Attribute(l), Attribute(r)), lt, rt))
                } while current.isSymbol(",")
                try expectSymbol("]", "or ',' in the join's attribute pairs")
                pairs = list
            }
            let right = try parsePostfix()
            if let pairs {
                for (pair, lt, rt) in pairs {
                    try requireAttribute(pair.left, of: left, at: lt, context: "join (left operand)")
                    try requireAttribute(pair.right, of: right, at: rt, context: "join (right operand)")
                }
                let matching = pairs.map(\.0)
                left = try build(at: op) { try left.equijoin(right, matching: matching) }
            } else {
                left = try build(at: op) { try left.join(right) }
            }
        }
        return left
    }

    private mutating func parsePostfix() throws -> Relation {
        var relation = try parsePrimary()
        while true {
            let op = current
            if op.isKeyword("select") {
                advance()
                try expectSymbol("(", "after 'select'")
                var attributes: [(Attribute, Token)] = []
                let predicate = try parseExpression(&attributes)
                try expectSymbol(")", "to close the select expression")
                for (a, token) in attributes {
                    try requireAttribute(a, of: relation, at: token, context: "select")
                }
                let input = relation
                relation = try build(at: op) { try input.select(predicate) }
            } else if op.isKeyword("project") {
                advance()
                let names = try parseNameList("an attribute to keep")
                for (a, token) in names { try requireAttribute(a, of: relation, at: token, context: "project") }
                let input = relation
                relation = try build(at: op) { try input.project(names.map(\.0)) }
            } else if op.isKeyword("rename") {
                advance()
                relation = try parseRename(relation, op)
            } else if op.isKeyword("closure") {
                advance()
                relation = try parseClosure(relation, op)
            } else {
                return relation
            }
        }
    }

    private mutating func parseRename(_ input: Relation, _ op: Token) throws -> Relation {
        try expectSymbol("[", "after 'rename'")
        var map: [Attribute: Attribute] = [:]
        repeat {
            if !map.isEmpty { advance() }
            let (old, oldToken) = try expectName("an attribute to rename")
            try expectSymbol("->", "between the old and new name")
            let (new, _) = try expectName("the new name")
            try requireAttribute(Attribute(old), of: input, at: oldToken, context: "rename")
            if map[Attribute(old)] != nil {
                throw error("\(Printable.quoted(old)) is renamed twice", at: oldToken)
            }
            map[Attribute(old)] = Attribute(new)
        } while current.isSymbol(",")
        try expectSymbol("]", "or ',' in the rename list")
        return try build(at: op) { try input.rename(map) }
    }

    /// `closure [from -> to]`: the edge relation must have exactly these two attributes
    /// (scheme derivation says so, located at the keyword).
    private mutating func parseClosure(_ input: Relation, _ op: Token) throws -> Relation {
        try expectSymbol("[", "after 'closure'")
        let (from, fromToken) = try expectName("the attribute edges start from")
        try expectSymbol("->", "between the two ends of an edge")
        let (to, toToken) = try expectName("the attribute edges lead to")
        try expectSymbol("]", "to close the closure's edge")
        try requireAttribute(Attribute(from), of: input, at: fromToken, context: "closure")
        try requireAttribute(Attribute(to), of: input, at: toToken, context: "closure")
        return try build(at: op) { try input.closure(Attribute(from), Attribute(to)) }
    }

    /// `'[' [name (',' name)*] ']'`
    private mutating func parseNameList(_ what: String) throws -> [(Attribute, Token)] {
        try expectSymbol("[")
        var names: [(Attribute, Token)] = []
        if current.isSymbol("]") {
            advance()
            return names
        }
        repeat {
            if !names.isEmpty { advance() }
            let (name, token) = try expectName(what)
            names.append((Attribute(name), token))
        } while current.isSymbol(",")
        try expectSymbol("]", "or ','")
        return names
    }

    private mutating func parsePrimary() throws -> Relation {
        let token = current
        if token.isSymbol("(") {
            return try nested(at: token, "relation") { parser in
                parser.advance()
                let inner = try parser.parseRelation()
                try parser.expectSymbol(")", "to close the parenthesis")
                return inner
            }
        }
        if token.isKeyword("relation") {
            advance()
            return try parseLiteral(token)
        }
        guard let name = token.identifierName else {
            throw expected("a relation (a table name, a let name, '(' or 'relation')")
        }
        advance()
        if let bound = bindings[name] { return bound }
        if let table = catalog[name] { return table }
        let known = catalog.names + bindings.keys.sorted()
        let suggestion = closestMatch(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
        throw error("unknown relation \(Printable.excerpt(name))\(suggestion)", at: token)
    }

    private mutating func parseLiteral(_ keyword: Token) throws -> Relation {
        let columns = try parseNameList("an attribute name")
        try expectSymbol("{", "to start the literal's rows")
        let rows = try parseLiteralRows(width: columns.count, widthSource: "the relation has")
        return try build(at: keyword) {
            let table = try MemoryTable(name: "literal", columns: columns.map(\.0), rows: rows)
            return Relation(source: table)
        }
    }

    // MARK: Checks

    /// Reports an unknown attribute at its own token, with a did-you-mean.
    func requireAttribute(_ a: Attribute, of relation: Relation, at token: Token, context: String) throws {
        guard !relation.scheme.contains(a) else { return }
        let names = relation.scheme.attributes.map(\.name)
        let suggestion = closestMatch(to: a.name, among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw error("\(context): unknown attribute \(Printable.quoted(a.name))\(suggestion) (the relation has \(relation.scheme.listed()))", at: token)
    }

    /// Parses `body` one level of parentheses or `not` deeper; past the limit, the error
    /// points at `token`, the opening that went too deep.
    mutating func nested<T>(at token: Token, _ what: String, _ body: (inout QueryParser) throws -> T) throws -> T {
        guard nesting < Self.nestingLimit else {
            throw error("\(what) nests deeper than \(Self.nestingLimit) levels", at: token)
        }
        nesting += 1
        defer { nesting -= 1 }
        return try body(&self)
    }

    /// Counts one constant at `token`; the first past `constantLimit` is an error there.
    mutating func countConstant(at token: Token) throws {
        guard constants < Self.constantLimit else {
            switch constantScope {
            case .query:
                throw error("more than \(Self.constantLimit) constants in one query (values of literal relations and "
                    + "in select expressions); load large value lists as a table instead", at: token)
            case .changeStatement:
                throw error("more than \(Self.constantLimit) constants in one change statement (added rows' values, "
                    + "assignments and constants in 'where'); split it into several statements", at: token)
            }
        }
        constants += 1
    }

    private enum ConstantScope { case query, changeStatement }

    /// Starts counting constants afresh for the next statement of a change script: its
    /// statements are applied one by one, each a write or a filtered fetch of its own, so
    /// `constantLimit` bounds each statement, not the script (a generated session of 5,001
    /// one-row transactions was refused as one query of too many constants).
    mutating func startChangeStatement() {
        constantScope = .changeStatement
        constants = 0
    }

    /// Runs an operator; a scheme error, or one operator too many on top of each other, is
    /// reported at the operator's keyword.
    mutating func build(at op: Token, _ body: () throws -> Relation) throws -> Relation {
        let relation: Relation
        do {
            relation = try body()
        } catch let e as RelationError {
            throw error(e.description, at: op)
        }
        let depth = 1 + relation.operands.map { operatorDepth[ObjectIdentifier($0)]?.depth ?? 0 }.reduce(0, max)
        guard depth <= Self.operatorDepthLimit else {
            throw error("relation has more than \(Self.operatorDepthLimit) operators applied on top of each other", at: op)
        }
        if !relation.operands.isEmpty { operatorDepth[ObjectIdentifier(relation)] = (relation, depth) }
        return relation
    }
}
