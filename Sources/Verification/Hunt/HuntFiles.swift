import FileSupport
import QueryEngine

/// The files of a hunt run in its output directory:
///
/// - `regret.csv`: one row per case and flag set (and a `seed+best-order` row per case
///   whose initiator orders were all tried): `case, flagset, flags, source_rows_read,
///   best_rows_read, regret, run_us, best_run_us, time_regret, order_ratio, order_time_ratio,
///   result_rows, sources, nodes, table_rows`. The order ratios are the slowest over the
///   fastest across random initiator orders (the robustness report), empty when not drawn.
/// - `summary.csv`: per flag set, the regret distribution (median, p90, p99, max, mean,
///   cases at least the minimum regret), time regret, the order ratios beside them, and
///   on how many cases it read more (or fewer) rows than the chosen flag set (for `no-NAME`:
///   how often heuristic NAME saves rows, and how often it costs rows).
/// - `estimate-violations.csv`: estimates larger under a filter than under a weaker one.
/// - `repro/hunt-s<seed>-<n>/`: the reduced cases (`RegretRepro`).
public enum HuntFiles {
    /// Returns the repro directories, one per reduced case in order.
    @discardableResult
    public static func write(_ report: HuntReport, grid: HuntGrid, to directory: String) throws -> [String] {
        try FileSystem.makeDirectories(directory)
        // A failed write (a full disk) takes back what this call wrote, so no half set of
        // results is left to be read as a hunt's.
        var written: [String] = []
        var repros: [String] = []
        do {
            for (name, text) in [("regret.csv", regretCSV(report, grid: grid)), ("summary.csv", summaryCSV(report)),
                                 ("estimate-violations.csv", violationsCSV(report))] {
                let path = FileSystem.join(directory, name)
                try FileSystem.writeTextAtomically(text, to: path)
                written.append(path)
            }
            for (n, reduced) in report.reduced.enumerated() {
                repros.append(try RegretRepro.write(reduced, grid: grid, chosen: report.chosen, minRegret: report.minRegret,
                                                    id: "hunt-s\(report.seed)-\(n + 1)", under: FileSystem.join(directory, "repro")))
                written.append(repros[n])
            }
        } catch {
            for path in written { FileSystem.removeTree(path) }
            FileSystem.removeEmptyDirectory(FileSystem.join(directory, "repro"))
            throw error
        }
        return repros
    }

    static let regretHeader = "case,flagset,flags,source_rows_read,best_rows_read,regret,run_us,best_run_us,time_regret,"
        + "order_ratio,order_time_ratio,result_rows,sources,nodes,table_rows"

    public static func regretCSV(_ report: HuntReport, grid: HuntGrid) -> String {
        var lines = [regretHeader]
        for c in report.cases {
            let r = c.regret
            func line(_ name: String, _ flags: FlagSet, _ run: HuntRun, _ ratio: OrderRatio?) -> String {
                [String(c.index), name, quoted(flags.canonical), String(run.rowsRead), String(r.bestRows),
                 format(r.regret(run)), String(Int(run.microseconds.rounded())), String(Int(r.bestMicroseconds.rounded())),
                 format(r.timeRegret(run)), ratio.map { format($0.rows) } ?? "", ratio.map { format($0.time) } ?? "",
                 String(run.resultRows), String(r.sources), String(c.nodes), String(c.tableRows)].joined(separator: ",")
            }
            for (i, set) in grid.flagSets.enumerated() {
                lines.append(line(set.name, set.flags, r.runs[i], c.orderRatios.indices.contains(i) ? c.orderRatios[i] : nil))
            }
            if let best = r.bestOrder, let flags = try? grid.seedWithOrder(best) {
                lines.append(line("seed+best-order", flags, r.orderRuns[best], nil))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func summaryCSV(_ report: HuntReport) -> String {
        var lines = ["flagset,cases,regret_median,regret_p90,regret_p99,regret_max,regret_mean,cases_at_least_min_regret,"
            + "min_regret,time_regret_median,time_regret_p90,order_ratio_median,order_ratio_p90,order_ratio_max,"
            + "order_time_ratio_median,order_time_ratio_max,more_rows_than_chosen,fewer_rows_than_chosen"]
        let chosen = report.flagSets.firstIndex(of: report.chosen) ?? 0
        for (i, name) in report.flagSets.enumerated() {
            let regrets = report.regrets(i)
            let s = RegretStatistics(regrets)
            let t = RegretStatistics(report.cases.map { $0.regret.timeRegret($0.regret.runs[i]) })
            let ratios = report.cases.compactMap { $0.orderRatios.indices.contains(i) ? $0.orderRatios[i] : nil }
            let o = RegretStatistics(ratios.map(\.rows)), ot = RegretStatistics(ratios.map(\.time))
            // Empty, not 0, when no case drew random orders (--orders 0, single sources).
            let orderFigures = o.count == 0 ? ["", "", "", "", ""]
                : [format(o.median), format(o.p90), format(o.max), format(ot.median), format(ot.max)]
            let more = report.cases.filter { $0.regret.runs[i].rowsRead > $0.regret.runs[chosen].rowsRead }.count
            let fewer = report.cases.filter { $0.regret.runs[i].rowsRead < $0.regret.runs[chosen].rowsRead }.count
            var fields: [String] = [name, String(s.count), format(s.median), format(s.p90), format(s.p99), format(s.max)]
            fields += [format(s.mean), String(regrets.filter { $0 >= report.minRegret }.count), format(report.minRegret)]
            fields += [format(t.median), format(t.p90)]
            fields += orderFigures
            fields += [String(more), String(fewer)]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func violationsCSV(_ report: HuntReport) -> String {
        var lines = ["case,table,backend,weaker,stronger,weaker_estimate,stronger_estimate"]
        for (index, v) in report.estimateViolations {
            lines.append([String(index), v.table, v.backend, quoted(v.weaker), quoted(v.stronger),
                          String(v.weakerEstimate), String(v.strongerEstimate)].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func quoted(_ text: String) -> String {
        "\"" + String(text.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
    }
}
