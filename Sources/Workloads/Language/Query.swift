import Relational

/// One `output` of a query: its relation and the name given with `output name = ...`.
public struct QueryOutput {
    public let name: String?
    public let relation: Relation

    public init(name: String? = nil, relation: Relation) {
        self.name = name
        self.relation = relation
    }
}

/// A parsed query: its outputs in order, and the `let` bindings by name.
public struct Query {
    public let outputs: [QueryOutput]
    public let bindings: [String: Relation]

    public init(outputs: [QueryOutput], bindings: [String: Relation] = [:]) {
        self.outputs = outputs
        self.bindings = bindings
    }

    public var relations: [Relation] { outputs.map(\.relation) }

    /// Output names for display: the given name, else the relation's name, else `output N`.
    public var outputNames: [String] {
        outputs.enumerated().map { i, o in o.name ?? o.relation.name ?? "output \(i + 1)" }
    }

    /// Parses `text` against the tables of `catalog`; `file` names the text in errors.
    public static func parse(_ text: String, catalog: RelationCatalog, file: String = "<query>") throws -> Query {
        var parser = try QueryParser(text: text, file: file, catalog: catalog)
        return try parser.parseProgram()
    }
}
