/// SQL pieces joined by `AND` or `OR`, nested in balanced halves past 64 pieces: a parser
/// builds `a OR b OR c …` as a chain as deep as it is long, and SQLite refuses an expression
/// deeper than 1,000 (a multi-attribute IN-set of a thousand keys, fuzzer seed 914116; a
/// select of a thousand `and`-ed comparisons, the thirty-fourth session's probe). DuckDB
/// accepts the chain; the dialect nests it the same way so that no engine's depth limit is
/// in play. The pieces keep their order, so bound parameters keep theirs.
public enum SQLNesting {
    public static func anyOf(_ pieces: [String]) -> String { joined(pieces, "OR") }

    public static func allOf(_ pieces: [String]) -> String { joined(pieces, "AND") }

    private static func joined(_ pieces: [String], _ word: String) -> String {
        if pieces.count == 1 { return pieces[0] }
        if pieces.count <= 64 { return "(" + pieces.joined(separator: " \(word) ") + ")" }
        let half = pieces.count / 2
        return "(" + joined(Array(pieces[..<half]), word) + " \(word) " + joined(Array(pieces[half...]), word) + ")"
    }
}
