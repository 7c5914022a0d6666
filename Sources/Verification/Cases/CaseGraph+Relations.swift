import Relational
import SQLiteStore

extension CaseGraph {
    /// The case of a relation graph: every distinct source becomes a table (its rows read
    /// once, names made unique and safe for files), every distinct relation one node.
    public init(outputs roots: [Relation]) throws {
        var tables: [CaseTable] = []
        var nodes: [CaseOperation] = []
        var tableOfSource: [ObjectIdentifier: Int] = [:]
        var nodeOfRelation: [ObjectIdentifier: Int] = [:]
        var usedNames = Set<String>()

        func node(_ r: Relation) throws -> Int {
            if let n = nodeOfRelation[ObjectIdentifier(r)] { return n }
            let op: CaseOperation
            switch r.definition {
            case let .source(source):
                let key = ObjectIdentifier(source)
                if let t = tableOfSource[key] {
                    op = .table(t)
                } else {
                    let name = CaseGraph.uniqueName(source.sourceName, used: &usedNames)
                    tables.append(CaseTable(
                        name: name, scheme: source.scheme, rows: try source.fetchAll(filter: nil),
                        indexedAttributes: CaseGraph.indexedAttributes(of: source)))
                    tableOfSource[key] = tables.count - 1
                    op = .table(tables.count - 1)
                }
            case let .apply(o, operands):
                op = .apply(o, try operands.map(node))
            }
            nodes.append(op)
            nodeOfRelation[ObjectIdentifier(r)] = nodes.count - 1
            return nodes.count - 1
        }

        let outputs = try roots.map(node)
        self.init(tables: tables, nodes: nodes, outputs: outputs)
    }

    static func indexedAttributes(of source: any SourceRelation) -> [Attribute] {
        if let memory = source as? MemoryTable { return memory.indexedAttributes }
        if let table = source as? SQLiteTable { return table.indexes.compactMap(\.first) }
        return []
    }

    /// A table name of letters, digits and `_` not used yet (`literal`, `literal_2`, ...).
    static func uniqueName(_ preferred: String, used: inout Set<String>) -> String {
        var base = String(preferred.unicodeScalars.map { c -> Character in
            let ok = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "_"
            return ok ? Character(c) : "_"
        })
        if base.isEmpty || base.first?.isNumber == true { base = "t" + base }
        var name = base
        var n = 2
        while used.contains(name) {
            name = "\(base)_\(n)"
            n += 1
        }
        used.insert(name)
        return name
    }
}
