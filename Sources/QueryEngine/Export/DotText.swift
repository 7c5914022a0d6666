/// Small helpers for writing Graphviz DOT text.
enum DotText {
    /// A double-quoted DOT string with `"` and `\` escaped and newlines as `\n` (centred lines).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for ch in text {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(ch)
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
