import FileSupport
import Relational

// The change-script grammar, on the query language's lexer, literals and expressions:
//
//     script     := (transaction | statement)*
//     transaction:= 'begin' statement* 'commit'
//     statement  := 'add' name '[' names ']' '{' [tuple (',' tuple)*] '}'
//                 | 'delete' name ['where' '(' expr ')']
//                 | 'update' name 'set' '[' name '=' literal (',' name '=' literal)* ']' ['where' '(' expr ')']
//
// `begin`, `commit`, `add`, `delete`, `update`, `set` and `where` are words of this
// grammar only (not query keywords), recognised where a statement or clause may start.

extension QueryParser {
    mutating func parseChangeScript() throws -> [ChangeTransaction] {
        var transactions: [ChangeTransaction] = []
        while current.kind != .end {
            let start = current
            if isWord("begin") {
                advance()
                var statements: [ChangeStatement] = []
                while !isWord("commit") {
                    if current.kind == .end {
                        throw error("the transaction begun at line \(start.position.line) has no 'commit'", at: current)
                    }
                    if isWord("begin") { throw error("'begin' inside a transaction; transactions do not nest", at: current) }
                    statements.append(try parseChangeStatement())
                }
                advance()
                transactions.append(ChangeTransaction(position: start.position, statements: statements))
            } else if isWord("commit") {
                throw error("'commit' without 'begin'", at: current)
            } else {
                transactions.append(ChangeTransaction(position: start.position, statements: [try parseChangeStatement()]))
            }
        }
        return transactions
    }

    private func isWord(_ word: String) -> Bool {
        if case let .identifier(name) = current.kind { return name == word }
        return false
    }

    private mutating func parseChangeStatement() throws -> ChangeStatement {
        startChangeStatement()
        let verb = current
        guard isWord("add") || isWord("delete") || isWord("update") else {
            throw expected("'add', 'delete', 'update', 'begin' or 'commit'")
        }
        advance()
        let (name, nameToken) = try expectName("a relation name after '\(verb.text)'")
        guard let target = catalogRelation(name) else {
            let suggestion = closestMatch(to: name, among: catalog.names).map { "; did you mean '\($0)'?" } ?? ""
            throw error("unknown relation \(Printable.excerpt(name))\(suggestion)", at: nameToken)
        }
        let kind: ChangeStatement.Kind
        if verb.text == "add" {
            guard target.source != nil else {
                throw error("cannot add to \(Printable.quoted(name)): rows can only be added to a source table", at: nameToken)
            }
            kind = .add(try parseAddedRows(target, name: name, at: nameToken))
        } else if verb.text == "delete" {
            kind = .delete(where: try parseWhere(target))
        } else {
            guard isWord("set") else { throw expected("'set' after the relation name") }
            advance()
            let values = try parseAssignments(target)
            kind = .update(set: values, where: try parseWhere(target))
        }
        return ChangeStatement(kind: kind, target: target, targetName: name, position: verb.position)
    }

    private func catalogRelation(_ name: String) -> Relation? { catalog[name] }

    /// `[a, b] { (1, "x"), … }`: the names must be exactly the relation's attributes.
    private mutating func parseAddedRows(_ target: Relation, name: String, at nameToken: Token) throws -> [Row] {
        let open = current
        try expectSymbol("[", "to list the added rows' attributes")
        var columns: [Attribute] = []
        var listed: Set<Attribute> = []
        while !current.isSymbol("]") {
            if !columns.isEmpty { try expectSymbol(",", "or ']' between attribute names") }
            let (a, token) = try expectName("an attribute name")
            try requireAttribute(Attribute(a), of: target, at: token, context: "add to \(name)")
            if !listed.insert(Attribute(a)).inserted { throw error("attribute '\(a)' is listed twice", at: token) }
            columns.append(Attribute(a))
        }
        advance()
        guard columns.count == target.scheme.count else {
            let missing = target.scheme.attributes.filter { !listed.contains($0) }.map(\.name)
            throw error("add to \(name): the attribute list misses \(Scheme.listing(missing)) "
                + "(the relation has \(target.scheme.listed()))", at: open)
        }
        // Every attribute of the target once: the list is the scheme in another order.
        let order = Scheme.sortingOrder(of: columns)
        try expectSymbol("{", "to start the added rows")
        return try parseLiteralRows(width: columns.count, widthSource: "the list names")
            .map { values in Row(order.map { values[$0] }) }
    }

    /// `[a = 1, b = "x"]`.
    private mutating func parseAssignments(_ target: Relation) throws -> [Attribute: Value] {
        try expectSymbol("[", "to start the assignments")
        var values: [Attribute: Value] = [:]
        while !current.isSymbol("]") {
            if !values.isEmpty { try expectSymbol(",", "or ']' between assignments") }
            let (a, token) = try expectName("an attribute name")
            try requireAttribute(Attribute(a), of: target, at: token, context: "update set")
            try expectSymbol("=", "after the attribute name")
            let value = try parseLiteralValue()
            if values.updateValue(value, forKey: Attribute(a)) != nil {
                throw error("attribute '\(a)' is set twice", at: token)
            }
        }
        guard !values.isEmpty else { throw expected("at least one assignment 'name = value'") }
        advance()
        return values
    }

    /// `where (expr)`, or every row when absent.
    private mutating func parseWhere(_ target: Relation) throws -> Predicate {
        guard isWord("where") else { return .true }
        advance()
        let open = current
        try expectSymbol("(", "after 'where'")
        var attributes: [(Attribute, Token)] = []
        let predicate = try nested(at: open, "expression") { parser in
            try parser.parseExpression(&attributes)
        }
        try expectSymbol(")", "to close 'where ('")
        for (a, token) in attributes {
            try requireAttribute(a, of: target, at: token, context: "where")
        }
        return predicate
    }
}
