/// Query text as every reader sees it, whatever editor wrote the file: a leading UTF-8 byte
/// order mark is dropped and CRLF line ends, and the lone CRs of old Mac editors, become
/// LF. The lexer and the catalog's header reader both start from here, so a `.rq` file, an
/// inline config query, a change script and a repro's `query.rq` read alike, and
/// line:column positions count lines the same way everywhere. (A lone CR read as white
/// space let a `#` comment run to the end of the file and put every error on line 1.)
public enum SourceText {
    public static func normalized(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        guard scalars.contains("\r") else { return String(scalars) }
        var out = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar == "\r", next != scalars.endIndex, scalars[next] == "\n" {
                index = next
                continue
            }
            out.append(scalar == "\r" ? "\n" : scalar)
            index = next
        }
        return String(out)
    }
}
