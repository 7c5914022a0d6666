/// Building blocks of `report.html`: escaping, and tables whose columns sort in the browser.
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// A table cell: its text, and the value it sorts by (a number, or the text itself).
    struct Cell {
        let text: String
        let sortValue: Double?
        let className: String?

        init(_ text: String, sort: Double? = nil, className: String? = nil) {
            self.text = text
            self.sortValue = sort
            self.className = className
        }

        static func number(_ value: Double?, _ text: (Double) -> String) -> Cell {
            guard let value else { return Cell("–", sort: nil, className: "num") }
            return Cell(text(value), sort: value, className: "num")
        }
    }

    /// A table with a header row; clicking a column header sorts by that column (see `ReportAssets.script`).
    static func sortableTable(id: String, header: [String], rows: [[Cell]]) -> String {
        var html = "<table class=\"sortable\" id=\"\(escape(id))\">\n<thead><tr>"
        for (i, name) in header.enumerated() {
            html += "<th data-column=\"\(i)\" tabindex=\"0\" title=\"sort by \(escape(name))\">\(escape(name))</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for row in rows {
            html += "<tr>"
            for cell in row {
                var attributes = ""
                if let v = cell.sortValue, v.isFinite { attributes += " data-sort=\"\(v)\"" }
                if let c = cell.className { attributes += " class=\"\(c)\"" }
                html += "<td\(attributes)>\(escape(cell.text))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    static func pre(_ text: String) -> String { "<pre>\(escape(text))</pre>\n" }
}
