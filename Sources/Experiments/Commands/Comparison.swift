import FileSupport
import Foundation
import QueryEngine
import Relational

/// `testbed compare RESULTS [--baseline FLAGSET]`: per query and size, the median total
/// time of every flag set and engine side by side, each with its ratio to the baseline's
/// median and the ratio's bootstrap confidence interval (from `timings.csv`). A difference is
/// marked (`*`) only where that interval excludes 1; without intervals (no `timings.csv`, or
/// no scipy), where the two min–max ranges do not overlap.
public struct Comparison {
    public var results: String
    public var baseline: String?
    public var catalogDirectory: String?

    public init(results: String, baseline: String? = nil) {
        self.results = results
        self.baseline = baseline
    }

    /// Exit 1 when cells of one query and size gave different results: their times measure
    /// different work (a run that mismatched, or an edited file).
    public func execute(console: Console) -> Int32 {
        do {
            let (text, disagreeing) = try renderWithVerdict()
            console.out(text)
            return disagreeing ? 1 : 0
        } catch {
            return ExitStatus.code(for: error, console: console)
        }
    }

    public func render() throws -> String { try renderWithVerdict().text }

    private func renderWithVerdict() throws -> (text: String, disagreeing: Bool) {
        let path = FileSystem.isDirectory(results) ? FileSystem.join(results, Summary.fileName) : results
        guard FileSystem.exists(path) else {
            throw ExperimentFailure.usage("\(Printable.quoted(results)) has no \(Summary.fileName); give a run's output directory")
        }
        let experiment = try experiment(beside: path)
        try PassesFile.checkRunFiles(in: FileSystem.parentDirectory(of: path), experiment: experiment)
        let rows = try Summary.read(path, experiment: experiment)
        guard !rows.isEmpty else { throw ExperimentFailure.usage("\(Printable.escaped(path)) has no cells") }
        let multipleBackends = Set(rows.filter(\.cell.isTestbed).map(\.cell.backend)).count > 1
        func label(_ r: SummaryRow) -> String { SummaryTable.label(r.cell, multipleBackends: multipleBackends) }

        var labels: [String] = []
        for r in rows where !labels.contains(label(r)) { labels.append(label(r)) }
        let chosen = baseline ?? rows.first.map(\.baseline).flatMap { $0.isEmpty ? nil : $0 } ?? labels[0]
        let base = chosen.contains("=")
            ? label(try row(withFlags: chosen, in: rows, path: path))
            : labels.contains(chosen) ? chosen : labels.first { $0.hasPrefix(chosen + "@") || $0.hasPrefix(chosen + "/") }
        guard let base else {
            let hint = closestMatch(to: chosen, among: labels).map { "; did you mean '\($0)'?" } ?? ""
            throw ExperimentFailure.usage("--baseline: no flag set or engine named '\(chosen)' in \(path)\(hint) (there are: \(labels.joined(separator: ", ")))")
        }
        let ordered = [base] + labels.filter { $0 != base }

        var groups: [String] = []
        var cells: [String: [String: SummaryRow]] = [:]
        for r in rows {
            let key = "\(r.cell.query)\u{0}\(r.cell.rows)"
            if cells[key] == nil { groups.append(key) }
            cells[key, default: [:]][label(r)] = r
        }
        let intervals = try RatioIntervals(summary: path, experiment: experiment, rows: rows, base: base, label: label)
        var unclear: [String] = []
        var table = [["query", "rows"] + ordered.map { $0 == base ? "\($0) (baseline)" : $0 }]
        for key in groups {
            let parts = key.split(separator: "\u{0}").map(String.init)
            let byLabel = cells[key] ?? [:]
            var line = [parts[0], parts.count > 1 ? parts[1] : ""]
            let reference = byLabel[base]
            for l in ordered {
                guard let r = byLabel[l] else { line.append("-"); continue }
                var text = SummaryTable.milliseconds(r.total.median) + " ms"
                if l != base, let reference {
                    // A zero baseline median (a sub-0.1 µs cell) has no ratio.
                    if reference.total.median > 0 {
                        let ratio = r.total.median / reference.total.median
                        text += String(format: " %.3gx", ratio)
                        if let interval = intervals.interval(of: r) {
                            text += String(format: " [%.3g–%.3g]", interval.low, interval.high)
                            if interval.contains(1) {
                                text += "  "
                                if let n = BootstrapIntervals.repetitionsNeeded(ratio: ratio, interval: interval, repetitions: r.repetitions) {
                                    unclear.append("\(r.cell.query) \(r.cell.rows) \(l): ratio \(String(format: "%.3g", ratio)), "
                                        + "about \(n) repetitions would tell")
                                }
                            } else {
                                text += " *"
                            }
                        } else {
                            text += r.total.separated(from: reference.total) ? " *" : "  "
                        }
                    } else {
                        text += " -   "
                    }
                }
                line.append(text)
            }
            table.append(line)
        }
        var text = SummaryTable.align(table, rightAligned: [1])
            + "ratio = median total time / the baseline's median (below 1 is faster); "
        if let note = intervals.note {
            text += "* = the min–max ranges do not overlap\n(no confidence intervals: \(note))\n"
        } else {
            text += "[low–high] = \(Int(BootstrapIntervals.confidence * 100))% bootstrap confidence interval of the ratio "
                + "(\(intervals.library)); * = the interval excludes 1\n"
            if !unclear.isEmpty {
                text += "cannot tell (the interval includes 1), if the observed ratio is the true one:\n"
                    + unclear.map { "  " + $0 + "\n" }.joined()
            }
        }
        var disagreeing = groups.compactMap { key -> String? in
            let results = ordered.compactMap { cells[key]?[$0] }.map { "\($0.resultRows) rows \($0.resultHash.prefix(8))" }
            guard Set(results).count > 1 else { return nil }
            return key.replacingOccurrences(of: "\u{0}", with: " ") + ": "
                + zip(ordered.filter { cells[key]?[$0] != nil }, results).map { "\($0) \($1)" }.joined(separator: ", ")
        }
        // Every repetition, from the timings beside (the summary keeps one result per cell).
        let timings = FileSystem.join(FileSystem.parentDirectory(of: path), TimingsFile.name)
        if disagreeing.isEmpty, let experiment, FileSystem.exists(timings) {
            disagreeing = EqualityCheck().mismatches(try TimingsFile.read(timings, experiment: experiment), order: experiment.cells) {
                ResultsWriter.mismatchLabel($0, multipleBackends: multipleBackends)
            }.map { "\($0.group): " + $0.results.map { "\($0.label) \($0.rows) rows \($0.hash.prefix(8))" }.joined(separator: " vs ") }
        }
        if !disagreeing.isEmpty {
            text += "RESULTS DISAGREE: these cells did not give the same result, so their times are not comparable:\n"
                + disagreeing.map { "  " + $0 + "\n" }.joined()
        }
        return (text, !disagreeing.isEmpty)
    }

    /// The experiment of the run `summary` belongs to (its `config.yaml`), so every row can be
    /// checked against its matrix; nil for a `summary.csv` given on its own.
    private func experiment(beside summary: String) throws -> Experiment? {
        let config = FileSystem.join(FileSystem.parentDirectory(of: summary), "config.yaml")
        guard FileSystem.exists(config) else { return nil }
        return try ExperimentResolver.resolve(text: try FileSystem.readText(config), file: config, catalogDirectory: catalogDirectory)
    }

    /// The first testbed cell run under the flags `text` names (`NAME=VALUE,...`, canonical
    /// or partial on top of all-on), matched on the canonical `flags` column.
    private func row(withFlags text: String, in rows: [SummaryRow], path: String) throws -> SummaryRow {
        let canonical: String
        do { canonical = try HeuristicCatalog.standard.parseCanonical(text).canonical } catch {
            throw ExperimentFailure.usage("--baseline '\(text)': \(error)")
        }
        if let match = rows.first(where: { $0.cell.isTestbed && $0.flags == canonical }) { return match }
        var available: [String] = []
        for r in rows where r.cell.isTestbed {
            let entry = "\(r.cell.flagset) (\(r.flags))"
            if !available.contains(entry) { available.append(entry) }
        }
        throw ExperimentFailure.usage("--baseline: no flag set in \(path) ran with \(canonical) (there are: "
            + (available.isEmpty ? "none" : available.joined(separator: "; ")) + ")")
    }
}
