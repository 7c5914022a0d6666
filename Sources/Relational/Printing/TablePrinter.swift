/// Renders rows as an aligned text table, attributes in scheme order and rows sorted in
/// the value order, in the look of the seed articles:
///
///     id  name
///     1   Jane Doe
///     2   John Smith
public enum TablePrinter {
    public static func render(scheme: Scheme, rows: [Row]) -> String {
        let header = scheme.attributes.map(\.name)
        let body = rows.sorted().map { row in row.values.map(\.displayText) }
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

    public static func render(_ relation: Relation) throws -> String {
        render(scheme: relation.scheme, rows: try relation.rows())
    }
}
