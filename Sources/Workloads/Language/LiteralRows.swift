import Relational

extension QueryParser {
    /// The rows of a literal relation or an `add` statement, after its `{`:
    /// `(v, …), (v, …) }`, each row `width` values wide. `widthSource` completes the
    /// message of a row of the wrong width ("the relation has 2 attribute(s)").
    mutating func parseLiteralRows(width: Int, widthSource: String) throws -> [[Value]] {
        var rows: [[Value]] = []
        while !current.isSymbol("}") {
            if !rows.isEmpty { try expectSymbol(",", "or '}' between rows") }
            let open = current
            try expectSymbol("(", "to start a row")
            var values: [Value] = []
            while !current.isSymbol(")") {
                if !values.isEmpty { try expectSymbol(",", "or ')' between values") }
                values.append(try parseLiteralValue())
            }
            advance()
            guard values.count == width else {
                throw error("row has \(values.count) value(s) but \(widthSource) \(width) attribute(s)", at: open)
            }
            rows.append(values)
        }
        advance()
        return rows
    }
}
