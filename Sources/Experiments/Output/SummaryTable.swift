import Foundation

/// The readable summary printed at the end of a run: one line per cell, grouped by query
/// and size, with the median total time, its min–max range and the speedup.
public enum SummaryTable {
    public static func render(_ rows: [SummaryRow]) -> String {
        let multipleBackends = Set(rows.filter(\.cell.isTestbed).map(\.cell.backend)).count > 1
        var table: [[String]] = [["query", "rows", "engine / flag set", "median ms", "95% CI ms", "min–max ms", "result", "source rows",
                                  "speedup", "95% CI"]]
        var previous: (String, Int)?
        for r in rows {
            let key = (r.cell.query, r.cell.rows)
            let first = previous.map { $0 != key } ?? true
            previous = key
            table.append([
                first ? r.cell.query : "", first ? String(r.cell.rows) : "",
                label(r.cell, multipleBackends: multipleBackends),
                milliseconds(r.total.median), r.totalInterval.map { milliseconds($0.low) + "–" + milliseconds($0.high) } ?? "-",
                milliseconds(r.total.minimum) + "–" + milliseconds(r.total.maximum),
                "\(r.resultRows) \(String(r.resultHash.prefix(8)))", r.sourceRowsRead.map(String.init) ?? "-",
                r.speedup.map { String(format: "%.2fx", $0) } ?? "-",
                r.speedupInterval.map { String(format: "%.2f–%.2f", $0.low, $0.high) } ?? "-",
            ])
        }
        let baseline = rows.first?.baseline ?? ""
        return align(table, rightAligned: [1, 3, 4, 5, 7, 8, 9])
            + (baseline.isEmpty ? "" : "speedup = median total of flag set '\(baseline)' / median total of the row\n")
            + (rows.contains { $0.totalInterval != nil }
                ? "95% CI = seeded bootstrap confidence interval (scipy.stats.bootstrap) of the median and of the speedup\n" : "")
    }

    /// How a cell is named in tables and plots: the flag set, or the SQLite engine.
    public static func label(_ cell: Cell, multipleBackends: Bool) -> String {
        if !cell.isTestbed { return cell.engine }
        return (multipleBackends ? "\(cell.flagset)@\(cell.backend)" : cell.flagset) + (cell.mode.isEmpty ? "" : "/\(cell.mode)")
    }

    static func milliseconds(_ microseconds: Double) -> String {
        let ms = microseconds / 1000
        return ms >= 100 ? String(format: "%.0f", ms) : (ms >= 1 ? String(format: "%.2f", ms) : String(format: "%.3f", ms))
    }

    /// Columns padded to their widest cell; numbers right-aligned.
    static func align(_ table: [[String]], rightAligned: Set<Int> = [1, 3, 4, 6, 7]) -> String {
        guard let header = table.first else { return "" }
        var widths = header.map(\.count)
        for row in table { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        return table.map { row in
            row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ").trailingSpacesRemoved + "\n"
        }.joined()
    }
}

extension String {
    var trailingSpacesRemoved: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
