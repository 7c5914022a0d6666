import FileSupport
import Foundation
import QueryEngine

/// `report.html`: one static page per run directory, built from the files a run leaves
/// (config.yaml, environment.txt, summary.csv, timings.csv, mismatches.txt, plots/, plans/,
/// passes.csv when present). Images are linked relatively, so the directory can be zipped
/// and read anywhere offline; the page loads nothing else.
public struct ReportWriter {
    public static let fileName = "report.html"

    let directory: String
    let experiment: Experiment
    /// What the run just computed; read from the directory's files when nil.
    var rows: [SummaryRow]?
    var records: [TimingRecord]?
    var status: String?
    var intervalNote: String?

    public init(directory: String, experiment: Experiment) {
        self.directory = directory
        self.experiment = experiment
    }

    init(directory: String, experiment: Experiment, rows: [SummaryRow], records: [TimingRecord], status: String, intervalNote: String?) {
        self.init(directory: directory, experiment: experiment)
        self.rows = rows
        self.records = records
        self.status = status
        self.intervalNote = intervalNote
    }

    var multipleBackends: Bool { experiment.backends.count > 1 }

    /// Writes the page atomically; returns its path.
    @discardableResult
    public func write() throws -> String {
        let path = FileSystem.join(directory, Self.fileName)
        try FileSystem.writeTextAtomically(try render(), to: path)
        return path
    }

    func render() throws -> String {
        var notes: [String] = []
        let records = try self.records ?? readRecords()
        var rows = try self.rows ?? readRows()
        if let intervalNote { notes.append(intervalNote) }
        if self.rows == nil, !rows.isEmpty, rows.allSatisfy({ $0.totalInterval == nil }), !records.isEmpty {
            // A run from before the intervals existed: compute them for the page (summary.csv is left as it is).
            let attached = SummaryIntervals.attach(rows, records: records, order: experiment.cells, baseline: experiment.speedupBaseline)
            rows = attached.rows
            if let note = attached.note { notes.append(note) }
        }
        let status = try self.status ?? readStatus()
        // A file the run did not write (passes.csv before it existed) is left out; one that
        // cannot be read is an error, as for merge and --resume.
        let passes = try PassTimings.read(directory: directory)
        let plans = PlanIndex(experiment: experiment, directory: FileSystem.join(directory, "plans"))

        var body = "<h1>\(HTML.escape(experiment.name))</h1>\n<p>\(HTML.escape(experiment.description))</p>\n"
        body += "<p>Status: \(HTML.escape(status)). Shape <code>\(HTML.escape(experiment.shape.rawValue))</code>, "
            + "rows \(experiment.sizes.map(String.init).joined(separator: ", ")), seed \(experiment.seed), "
            + "\(experiment.repetitions) repetitions after \(experiment.warmup) warm-up runs.</p>\n"
        var nav = ["verdict": "Result equality", "summary": "Summary", "counters": "Counters", "plots": "Plots"]
        var navOrder = ["verdict", "summary", "counters", "plots"]
        if !plans.cells.isEmpty { nav["plans"] = "Plans"; navOrder.append("plans") }
        nav["passes"] = "Passes and hooks"; navOrder.append("passes")
        nav["config"] = "Config and environment"; navOrder.append("config")
        body += "<nav>" + navOrder.map { "<a href=\"#\($0)\">\(nav[$0] ?? $0)</a>" }.joined() + "</nav>\n"
        for note in notes { body += "<p class=\"note\">\(HTML.escape(note))</p>\n" }

        body += verdictSection(records: records)
        body += summarySection(rows)
        body += countersSection(records)
        body += plotsSection()
        if !plans.cells.isEmpty { body += plans.section(multipleBackends: multipleBackends) }
        body += passesSection(passes, rows: rows)
        body += configSection()

        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <link rel="icon" href="data:,">
            <title>\(HTML.escape(experiment.name)) — testbed report</title>
            <style>
            \(ReportAssets.style)
            </style>
            </head>
            <body>
            \(body)
            <script>
            \(ReportAssets.script)
            </script>
            </body>
            </html>

            """
    }

    func readRecords() throws -> [TimingRecord] {
        let path = FileSystem.join(directory, TimingsFile.name)
        return FileSystem.exists(path) ? try TimingsFile.read(path, experiment: experiment) : []
    }

    /// What `run.txt` says, or that there is none; a `run.txt` that cannot be read is an error.
    private func readStatus() throws -> String {
        guard FileSystem.exists(FileSystem.join(directory, RunState.fileName)) else { return "unknown (no run.txt)" }
        let state = try RunState.read(directory: directory)
        return "\(state.status.rawValue), \(state.cellsDone) of \(state.cellsTotal) cells" + (state.shard.isWhole ? "" : ", shard \(state.shard)")
    }

    private func readRows() throws -> [SummaryRow] {
        let path = FileSystem.join(directory, Summary.fileName)
        return FileSystem.exists(path) ? try Summary.read(path, experiment: experiment) : []
    }
}
