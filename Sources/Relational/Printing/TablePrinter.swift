/// Renders rows as an aligned text table, attributes in scheme order and rows sorted in
/// the value order, in the look of the seed articles:
///
///     id  name
///     1   Jane Doe
///     2   John Smith
public enum TablePrinter {
    public static func render(scheme: Scheme, rows: [Row]) -> String {
        let header = scheme.attributes.map { cell($0.name) }
        let body = rows.sorted().map { row in row.values.map { cell($0.displayText) } }
        var widths = header.map(\.count)
        for cells in body {
            for (i, cell) in cells.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var out = ""
            for (i, cell) in cells.enumerated() {
                let isLast = i == cells.count - 1
                out += isLast ? cell : cell + String(repeating: " ", count: widths[i] + 2 - cell.count)
            }
            return out
        }
        return ([line(header)] + body.map(line)).joined(separator: "\n") + "\n"
    }

    /// A cell as the terminal should show it: control and bidirectional-override characters
    /// (a text value or a quoted attribute name may hold ESC, a tab or a line break) as
    /// `\u{…}` escapes, so that data never moves the cursor or breaks the table's lines.
    static func cell(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) { out += "\\u{" + String(scalar.value, radix: 16) + "}" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7f, 0x80..<0xa0, 0x2028, 0x2029, 0x202a...0x202e, 0x2066...0x2069: return true
        default: return false
        }
    }

    public static func render(_ relation: Relation) throws -> String {
        render(scheme: relation.scheme, rows: try relation.rows())
    }
}
