import FileSupport
import Foundation
import QueryEngine

/// The sections of `report.html`, each from the run's records and files.
extension ReportWriter {
    func label(_ cell: Cell) -> String { SummaryTable.label(cell, multipleBackends: multipleBackends) }

    /// The verdict is worked out from `timings.csv`'s records, as `merge` does: a result hash
    /// edited there (or a run's `mismatches.txt` removed) said "Results equal" before.
    func verdictSection(records: [TimingRecord]) -> String {
        var html = "<h2 id=\"verdict\">Result equality</h2>\n"
        let mismatchesFile = FileSystem.join(directory, "mismatches.txt")
        let found = mismatches(records)
        if !found.isEmpty || FileSystem.exists(mismatchesFile) {
            html += "<p class=\"verdict bad\">Results differ: some flag sets or engines gave different answers for the same query and size.</p>\n"
            let text = found.isEmpty ? (Self.embeddable("mismatches.txt", in: directory) ?? "(mismatches.txt cannot be read)")
                : EqualityCheck.report(found)
            html += HTML.pre(text)
        } else if records.isEmpty {
            html += "<p class=\"verdict\">No cells have run yet.</p>\n"
        } else {
            let groups = Set(records.map(\.cell.group)).count
            html += "<p class=\"verdict ok\">Results equal: every flag set and engine gave the same result (hash) in each of the \(groups) query and size groups.</p>\n"
        }
        return html
    }

    func mismatches(_ records: [TimingRecord]) -> [Mismatch] {
        EqualityCheck().mismatches(records, order: experiment.cells) { ResultsWriter.mismatchLabel($0, multipleBackends: multipleBackends) }
    }

    func summarySection(_ rows: [SummaryRow]) -> String {
        var html = "<h2 id=\"summary\">Summary</h2>\n"
        guard !rows.isEmpty else { return html + "<p>No cells.</p>\n" }
        let ms: (Double) -> String = { SummaryTable.milliseconds($0) }
        let header = ["query", "rows", "engine / flag set", "repetitions", "median ms", "95% CI ms", "min ms", "max ms",
                      "speedup", "speedup 95% CI", "result rows", "result hash", "source rows read"]
        let cells: [[HTML.Cell]] = rows.map { r in
            [HTML.Cell(r.cell.query), .number(Double(r.cell.rows)) { String(Int($0)) }, HTML.Cell(label(r.cell)),
             .number(Double(r.repetitions)) { String(Int($0)) },
             .number(r.total.median / 1000) { _ in ms(r.total.median) },
             HTML.Cell(r.totalInterval.map { ms($0.low) + " – " + ms($0.high) } ?? "–", sort: r.totalInterval.map { $0.high - $0.low }, className: "num"),
             .number(r.total.minimum / 1000) { _ in ms(r.total.minimum) }, .number(r.total.maximum / 1000) { _ in ms(r.total.maximum) },
             .number(r.speedup) { String(format: "%.2fx", $0) },
             HTML.Cell(r.speedupInterval.map { String(format: "%.2f – %.2f", $0.low, $0.high) } ?? "–", sort: r.speedupInterval?.low, className: "num"),
             .number(Double(r.resultRows)) { String(Int($0)) }, HTML.Cell(String(r.resultHash.prefix(16))),
             .number(r.sourceRowsRead.map(Double.init)) { String(Int($0)) }]
        }
        html += "<div class=\"tablewrap\">" + HTML.sortableTable(id: "summary-table", header: header, rows: cells) + "</div>"
        let baseline = rows.first?.baseline ?? ""
        html += "<p>Times are the total of plan, optimize and run. "
            + (baseline.isEmpty ? "" : "Speedup = median total of flag set <code>\(HTML.escape(baseline))</code> / median total of the row. ")
            + "95% CI: seeded bootstrap confidence interval (scipy.stats.bootstrap, percentile method, "
            + "\(BootstrapIntervals.resamples) resamples, seed \(BootstrapIntervals.seed)) of the median and of the speedup.</p>\n"
        return html
    }

    func countersSection(_ records: [TimingRecord]) -> String {
        var html = "<h2 id=\"counters\">Counters</h2>\n"
        let byCell = Dictionary(grouping: records, by: \.cell)
        let cells = experiment.cells.filter { byCell[$0]?.isEmpty == false && $0.isTestbed }
        guard !cells.isEmpty else { return html + "<p>No testbed cells.</p>\n" }
        let names = RunCounters.columnNames
        let rows: [[HTML.Cell]] = cells.compactMap { cell in
            guard let first = byCell[cell]?.min(by: { $0.repetition < $1.repetition }) else { return nil }
            return [HTML.Cell(cell.query), .number(Double(cell.rows)) { String(Int($0)) }, HTML.Cell(label(cell))]
                + first.counters.map { value in .number(value.map(Double.init)) { String(Int($0)) } }
        }
        html += "<div class=\"tablewrap\">" + HTML.sortableTable(id: "counters-table", header: ["query", "rows", "flag set"] + names, rows: rows) + "</div>"
        return html + "<p>Engine counters are deterministic: the same in every repetition (shown: the first).</p>\n"
    }

    func plotsSection() -> String {
        var html = "<h2 id=\"plots\">Plots</h2>\n"
        let files = (FileSystem.entries(of: FileSystem.join(directory, "plots")) ?? [])
            .filter { $0.hasSuffix(".svg") || $0.hasSuffix(".png") }.sorted()
        guard !files.isEmpty else {
            return html + "<p class=\"note\">No plots in plots/ (they need matplotlib: run scripts/setup.sh --plotting, then python3 scripts/plot_experiment.py on this directory).</p>\n"
        }
        html += "<div class=\"plots\">\n"
        for file in files {
            html += "<figure><img src=\"plots/\(HTML.escape(file))\" alt=\"\(HTML.escape(file))\"><figcaption>\(HTML.escape(file))</figcaption></figure>\n"
        }
        return html + "</div>\n"
    }

    func passesSection(_ passes: PassTimings?, rows: [SummaryRow]) -> String {
        var html = "<h2 id=\"passes\">Passes and hooks</h2>\n"
        guard let passes else { return html + "<p>This run has no passes.csv (per-pass and per-hook timings).</p>\n" }
        var flagsetByFlags: [String: String] = [:]
        for r in rows where r.cell.isTestbed && flagsetByFlags[r.flags] == nil { flagsetByFlags[r.flags] = r.cell.flagset }
        for set in experiment.flagSets where flagsetByFlags[set.flags.canonical] == nil { flagsetByFlags[set.flags.canonical] = set.name }
        let table: [[HTML.Cell]] = passes.entries.map { e in
            [HTML.Cell(e.query), .number(Double(e.rows)) { String(Int($0)) }, HTML.Cell(e.backend),
             HTML.Cell(e.flagset ?? flagsetByFlags[e.flags] ?? e.flags), HTML.Cell(e.kind), HTML.Cell(e.name),
             .number(Double(e.repetitions)) { String(Int($0)) }, .number(e.calls.median) { String(format: "%g", $0) },
             .number(e.microseconds.median) { String(format: "%.1f", $0) },
             .number(e.microseconds.minimum) { String(format: "%.1f", $0) }, .number(e.microseconds.maximum) { String(format: "%.1f", $0) }]
        }
        html += "<div class=\"tablewrap\">" + HTML.sortableTable(
            id: "passes-table", header: ["query", "rows", "backend", "flag set", "kind", "name", "repetitions", "calls (median)",
                                         "median µs", "min µs", "max µs"], rows: table) + "</div>"
        return html
    }

    func configSection() -> String {
        var html = "<h2 id=\"config\">Config and environment</h2>\n<h3>config.yaml as run</h3>\n" + HTML.pre(experiment.configText)
        html += "<h3>environment.txt</h3>\n" + HTML.pre(Self.embeddable(Environment.fileName, in: directory) ?? "(no environment.txt)")
        return html
    }

    /// The most of a run's own text file the page embeds.
    static let embeddedLimit = 1 << 20

    /// A run file's text for the page, or why it is left out: the page shows what the run
    /// wrote, so a link (which could name any file on the machine) is not followed, and a
    /// file grown past `embeddedLimit` is not copied in. Nil when the file is missing or
    /// cannot be read.
    static func embeddable(_ name: String, in directory: String) -> String? {
        let path = FileSystem.join(directory, name)
        if FileSystem.isSymbolicLink(path) { return "(\(name) is a symbolic link; a report embeds only the run's own files)" }
        guard FileSystem.kind(of: path) == .file else { return nil }
        if let size = FileSystem.size(of: path), size > embeddedLimit {
            return "(\(name) holds \(size) bytes; a report embeds at most \(embeddedLimit))"
        }
        return try? FileSystem.readText(path)
    }
}
