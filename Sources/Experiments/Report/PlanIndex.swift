import FileSupport
import Foundation

/// The plan graphs under `plans/` (named by `PlanWriter`: `QUERY--FLAGSET--ROWS-STAGE.svg`),
/// found by the names the experiment implies, and the page section that shows two flag sets
/// side by side for a chosen query and size.
struct PlanIndex {
    static let stages = ["relation", "planned", "optimized", "final"]

    struct PlanCell {
        let query: String
        let rows: Int
        /// flag set → stage → path relative to the run directory.
        var files: [String: [String: String]]
    }

    let flagSets: [String]
    let cells: [PlanCell]

    init(experiment: Experiment, directory: String) {
        flagSets = experiment.flagSets.map(\.name)
        var cells: [PlanCell] = []
        for rows in experiment.sizes {
            for query in experiment.queries {
                var cell = PlanCell(query: query.name, rows: rows, files: [:])
                for set in experiment.flagSets {
                    for stage in Self.stages {
                        let name = "\(query.name)--\(set.name)--\(rows)-\(stage).svg"
                        if FileSystem.exists(FileSystem.join(directory, name)) { cell.files[set.name, default: [:]][stage] = "plans/" + name }
                    }
                }
                if !cell.files.isEmpty { cells.append(cell) }
            }
        }
        self.cells = cells
    }

    func section(multipleBackends: Bool) -> String {
        guard let first = cells.first else { return "" }
        var html = "<h2 id=\"plans\">Plans</h2>\n<p>The relation graph, the planner's graph, the graph after the optimizer passes "
            + "and the runner's final graph, for two flag sets side by side.</p>\n<p>"
        html += "<label>query and size <select id=\"plan-cell\">"
        for (i, cell) in cells.enumerated() {
            html += "<option value=\"\(i)\">\(HTML.escape(cell.query)) at \(cell.rows) rows</option>"
        }
        html += "</select></label> "
        let leftDefault = flagSets.first ?? "", rightDefault = flagSets.dropFirst().first ?? leftDefault
        for (side, chosen) in [("left", leftDefault), ("right", rightDefault)] {
            html += "<label>\(side) <select id=\"plan-\(side)\">"
            for name in flagSets {
                html += "<option value=\"\(HTML.escape(name))\"\(name == chosen ? " selected" : "")>\(HTML.escape(name))</option>"
            }
            html += "</select></label> "
        }
        html += "</p>\n<div class=\"plans\">\n"
        for stage in Self.stages {
            html += "<div class=\"stage\">\(stage)</div>"
            for (side, chosen) in [("left", leftDefault), ("right", rightDefault)] {
                let file = first.files[chosen]?[stage]
                let src = file.map { " src=\"\(HTML.escape($0))\"" } ?? ""
                html += "<div><img id=\"plan-\(side)-\(stage)\"\(src) alt=\"\(stage) graph, \(HTML.escape(chosen))\"\(file == nil ? " hidden" : "")>"
                    + "<span id=\"plan-\(side)-\(stage)-missing\"\(file == nil ? "" : " hidden")>no graph</span></div>"
            }
            html += "\n"
        }
        html += "</div>\n"
        // The data the selects switch between, as JSON; `<` is escaped so no text can end the script element.
        var json = "{\"stages\":[" + Self.stages.map { "\"\($0)\"" }.joined(separator: ",") + "],\"cells\":["
        json += cells.map { cell in
            "{\"query\":\(Self.string(cell.query)),\"rows\":\(cell.rows),\"files\":{"
                + cell.files.keys.sorted().map { set in
                    Self.string(set) + ":{" + (cell.files[set] ?? [:]).keys.sorted().map { stage in
                        Self.string(stage) + ":" + Self.string(cell.files[set]?[stage] ?? "")
                    }.joined(separator: ",") + "}"
                }.joined(separator: ",") + "}}"
        }.joined(separator: ",") + "]}"
        html += "<script type=\"application/json\" id=\"plan-data\">\(json)</script>\n"
        return html
    }

    /// A JSON string literal, safe inside a script element.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "<", ">", "&": out += String(format: "\\u%04x", scalar.value)
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
