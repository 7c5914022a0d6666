import Relational

/// Turns relation graphs back into query text that parses to the same graph.
///
/// Catalog tables print as their names; other memory tables print as literals
/// (`relation [id] { (3) }`). A node reached more than once (shared) or carrying a name
/// becomes a `let`, so sharing survives the round trip. Operands are parenthesized only
/// where the precedence needs it.
public enum QueryPrinter {
    public static func print(_ query: Query, catalog: RelationCatalog) throws -> String {
        try print(query.outputs, catalog: catalog)
    }

    public static func print(_ relations: [Relation], catalog: RelationCatalog) throws -> String {
        try print(relations.map { QueryOutput(relation: $0) }, catalog: catalog)
    }

    public static func print(_ outputs: [QueryOutput], catalog: RelationCatalog) throws -> String {
        var printer = Printer(catalog: catalog)
        return try printer.program(outputs)
    }
}

private struct Printer {
    let catalog: RelationCatalog
    var references: [ObjectIdentifier: Int] = [:]
    var letNames: [ObjectIdentifier: String] = [:]
    var usedNames: Set<String> = []
    var lines: [String] = []
    /// Output nodes whose name came from `output name = ...`: they need no let of their own.
    var namedByOutput: Set<ObjectIdentifier> = []

    init(catalog: RelationCatalog) {
        self.catalog = catalog
        usedNames = Set(catalog.names)
    }

    mutating func program(_ outputs: [QueryOutput]) throws -> String {
        for o in outputs { count(o.relation) }
        for o in outputs where o.name != nil && o.name == o.relation.name {
            namedByOutput.insert(ObjectIdentifier(o.relation))
        }
        for o in outputs { try define(o.relation) }
        for o in outputs {
            let body = try expression(o.relation, minimum: 0)
            if let name = o.name {
                lines.append("output \(identifier(name)) = \(body)")
            } else {
                lines.append("output \(body)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Counts each node's parents (an output counts as one); walks each node once.
    mutating func count(_ r: Relation) {
        let id = ObjectIdentifier(r)
        references[id, default: 0] += 1
        if references[id] == 1 { for o in r.operands { count(o) } }
    }

    func isCatalogTable(_ r: Relation) -> Bool { catalog.name(of: r) != nil }

    func wantsLet(_ r: Relation) -> Bool {
        if isCatalogTable(r) { return false }
        if (references[ObjectIdentifier(r)] ?? 0) > 1 { return true }
        if namedByOutput.contains(ObjectIdentifier(r)) { return false }
        if r.source != nil { return false }
        return r.name != nil
    }

    /// Emits `let`s for every node below `r` that needs one, operands first.
    mutating func define(_ r: Relation) throws {
        let id = ObjectIdentifier(r)
        if letNames[id] != nil || isCatalogTable(r) { return }
        for o in r.operands { try define(o) }
        guard wantsLet(r), letNames[id] == nil else { return }
        let body = try expression(r, minimum: 0, bindingSelf: false)
        let name = freshName(r.name)
        lines.append("let \(identifier(name)) = \(body)")
        letNames[id] = name
    }

    mutating func freshName(_ preferred: String?) -> String {
        var base = preferred ?? "shared"
        if base.isEmpty || base == "literal" { base = "shared" }
        var name = base
        var n = 2
        while usedNames.contains(name) {
            name = "\(base)_\(n)"
            n += 1
        }
        usedNames.insert(name)
        return name
    }

    // Precedence levels: 1 union/minus, 2 intersect, 3 join, 4 postfix, 5 primary.
    func expression(_ r: Relation, minimum: Int, bindingSelf: Bool = true) throws -> String {
        if bindingSelf, let name = letNames[ObjectIdentifier(r)] { return identifier(name) }
        let (text, level) = try render(r)
        return level < minimum ? "(\(text))" : text
    }

    func render(_ r: Relation) throws -> (String, Int) {
        switch r.definition {
        case let .source(source):
            if let name = catalog.name(of: r) { return (identifier(name), 5) }
            guard let table = source as? MemoryTable else {
                throw QueryPrintError("cannot print source '\(source.sourceName)': it is not in the catalog and not a memory table")
            }
            return (literal(table), 5)
        case let .apply(op, operands):
            return try render(op, operands, scheme: r.scheme)
        }
    }

    /// One operator in query syntax with its precedence level. Binary operators are left
    /// associative, so a union of more than two operands prints as a chain.
    func render(_ op: Operator, _ operands: [Relation], scheme: Scheme) throws -> (String, Int) {
        let a = operands[0]
        func chain(_ keyword: String, level: Int) throws -> (String, Int) {
            var text = try expression(a, minimum: level)
            for b in operands.dropFirst() { text += " \(keyword) \(try expression(b, minimum: level + 1))" }
            return (text, level)
        }
        switch op {
        case .union:
            return try chain("union", level: 1)
        case .difference:
            return try chain("minus", level: 1)
        case .intersection:
            return try chain("intersect", level: 2)
        case let .join(pairs):
            let b = operands[1]
            let natural = Set(a.scheme.attributes).intersection(b.scheme.attributes).sorted().map { JoinPair($0, $0) }
            let spec = pairs == natural ? "" : " [" + pairs.map { "\(identifier($0.left.name)) = \(identifier($0.right.name))" }.joined(separator: ", ") + "]"
            return ("\(try expression(a, minimum: 3)) join\(spec) \(try expression(b, minimum: 4))", 3)
        case let .select(predicate):
            return ("\(try expression(a, minimum: 4)) select (\(PredicateText.render(predicate)))", 4)
        case .project:
            let names = scheme.attributes.map { identifier($0.name) }.joined(separator: ", ")
            return ("\(try expression(a, minimum: 4)) project [\(names)]", 4)
        case let .rename(map):
            let pairs = map.sorted { $0.key < $1.key }.map { "\(identifier($0.key.name)) -> \(identifier($0.value.name))" }
            return ("\(try expression(a, minimum: 4)) rename [\(pairs.joined(separator: ", "))]", 4)
        case let .closure(from, to):
            return ("\(try expression(a, minimum: 4)) closure [\(identifier(from.name)) -> \(identifier(to.name))]", 4)
        }
    }

    func literal(_ table: MemoryTable) -> String {
        let names = table.scheme.attributes.map { identifier($0.name) }.joined(separator: ", ")
        let rows = table.allRows.sorted().map { "(" + $0.values.map(PredicateText.literal).joined(separator: ", ") + ")" }
        return "relation [\(names)] {" + (rows.isEmpty ? "" : " " + rows.joined(separator: ", ") + " ") + "}"
    }
}

/// A printing failure (a source the language cannot express).
public struct QueryPrintError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A name as the language writes it: bare when it is a plain identifier and not a
/// keyword, else back-quoted.
public func identifier(_ name: String) -> String {
    var plain = !name.isEmpty && !queryKeywords.contains(name)
    for (i, c) in name.unicodeScalars.enumerated() {
        let letter = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_"
        let digit = c >= "0" && c <= "9"
        if !(letter || (digit && i > 0)) { plain = false }
    }
    // `x'...'` starts a blob, so a name `x` is fine but cannot be mistaken; keep bare.
    if plain { return name }
    var out = "`"
    for c in name.unicodeScalars {
        if c == "`" { out += "``" } else { out.unicodeScalars.append(c) }
    }
    return out + "`"
}

/// Predicates and values in query-language syntax, with names quoted where needed.
public enum PredicateText {
    public static func render(_ p: Predicate) -> String {
        switch p {
        case let .constant(b): return b ? "true" : "false"
        case let .comparison(l, op, r): return "\(term(l)) \(op.rawValue) \(term(r))"
        case let .and(parts): return parts.isEmpty ? "true" : parts.map(grouped).joined(separator: " and ")
        case let .or(parts): return parts.isEmpty ? "false" : parts.map(grouped).joined(separator: " or ")
        case let .not(inner): return "not (\(render(inner)))"
        case .inSet: return render(p.expandingInSets)
        }
    }

    private static func grouped(_ p: Predicate) -> String {
        switch p {
        case let .and(parts) where parts.count > 1: return "(\(render(p)))"
        case let .or(parts) where parts.count > 1: return "(\(render(p)))"
        default: return render(p)
        }
    }

    static func term(_ t: Term) -> String {
        switch t {
        case let .attribute(a): return identifier(a.name)
        case let .value(v): return literal(v)
        }
    }

    public static func literal(_ v: Value) -> String { v.description }
}
