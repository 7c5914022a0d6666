/// Small helpers for writing Graphviz DOT text.
enum DotText {
    /// A double-quoted DOT string with `"` and `\` escaped and newlines as `\n` (centred
    /// lines). Other control characters are written as the query language writes them in a
    /// string (`\u{0}`): Graphviz reads its input as C strings, and a raw NUL cut the text
    /// short in the middle of a quoted string ("syntax error"), which ended `plan` with exit 1.
    static func quoted(_ text: String) -> String {
        var out = "\""
        // By scalar: a CRLF pair is one `Character`, which no single-scalar case matches.
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Long filters would make unreadable boxes; keep the start and say how much was cut.
    static func abbreviated(_ text: String, limit: Int = 160) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.count) chars)"
    }
}
