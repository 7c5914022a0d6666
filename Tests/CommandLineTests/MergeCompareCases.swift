import Foundation

/// `testbed merge` and `testbed compare` over result directories made by a real tiny run
/// (Fixtures/s1, s2: `--shard 1/2` and `2/2`; Fixtures/full: unsharded), with one value changed.
enum MergeCompareCases {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The files of fixture directory `name`, placed under `as` in the case's directory.
    static func directory(_ name: String, as target: String) -> [String: String] {
        var out: [String: String] = [:]
        let url = fixtures.appendingPathComponent(name)
        for file in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
            out[target + "/" + file] = (try? String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)) ?? ""
        }
        return out
    }

    /// Replaces field `index` (counted after the quoted flags column) of data row `row` (1-based, after the header).
    static func editField(_ csv: String, row: Int, index: Int, value: String) -> String {
        var lines = csv.components(separatedBy: "\n")
        let line = lines[row]
        guard let quote = line.lastIndex(of: "\"") else { return csv }
        let head = line[...quote]
        var fields = line[line.index(after: quote)...].dropFirst().components(separatedBy: ",")
        fields[index] = value
        lines[row] = head + "," + fields.joined(separator: ",")
        return lines.joined(separator: "\n")
    }

    static func mergeCase(_ name: String, file: String = "timings.csv", edit: (String) -> String, expect: [String]) -> BatteryCase {
        var files = directory("s1", as: "s1").merging(directory("s2", as: "s2")) { a, _ in a }
        files["s1/" + file] = edit(files["s1/" + file] ?? "")
        return BatteryCase("merge/" + name, ["merge", "s1", "s2", "--out", "m"], files: files, expect: expect)
    }

    static func compareCase(_ name: String, file: String = "summary.csv", edit: (String) -> String, expect: [String],
                            extra: [String] = []) -> BatteryCase {
        var files = directory("full", as: "full")
        files["full/" + file] = edit(files["full/" + file] ?? "")
        return BatteryCase("compare/" + name, ["compare", "full"] + extra, files: files, expect: expect)
    }

    static let badTimes = [("negative", "-5.0"), ("nan", "nan"), ("NaN", "NaN"), ("inf", "inf"), ("minus-inf", "-inf"),
                           ("text", "fast"), ("empty", ""), ("huge", "1e400")]

    static var cases: [BatteryCase] {
        var out: [BatteryCase] = []
        // merge: timings.csv row 2 (line 2 of the file), fields after the flags column.
        for (tag, value) in badTimes {
            out.append(mergeCase("total-\(tag)", edit: { editField($0, row: 1, index: 5, value: value) }, expect: ["timings.csv:2"]))
        }
        for (tag, value) in [("negative", "-1"), ("nan", "nan")] {
            out.append(mergeCase("plan-\(tag)", edit: { editField($0, row: 1, index: 2, value: value) }, expect: ["timings.csv:2"]))
            out.append(mergeCase("run-\(tag)", edit: { editField($0, row: 1, index: 4, value: value) }, expect: ["timings.csv:2"]))
        }
        out.append(mergeCase("repetition-beyond", edit: { editField($0, row: 1, index: 1, value: "7") }, expect: ["timings.csv:2"]))
        out.append(mergeCase("repetition-zero", edit: { editField($0, row: 1, index: 1, value: "0") }, expect: ["timings.csv:2"]))
        out.append(mergeCase("repetition-overflow", edit: { editField($0, row: 1, index: 1, value: "99999999999999999999") },
                             expect: ["timings.csv:2"]))
        out.append(mergeCase("unknown-flagset", edit: { editField($0, row: 1, index: 0, value: "turbo") }, expect: ["timings.csv:2"]))
        out.append(mergeCase("unknown-flags", edit: { $0.replacingOccurrences(of: "select-pushdown=on", with: "warp-drive=on") },
                             expect: ["timings.csv:2"]))
        out.append(mergeCase("unknown-engine", edit: { $0.replacingOccurrences(of: ",memory,testbed,", with: ",memory,oracle,") },
                             expect: ["timings.csv:2"]))
        out.append(mergeCase("unknown-backend", edit: { $0.replacingOccurrences(of: ",memory,testbed,", with: ",postgres,testbed,") },
                             expect: ["timings.csv:2"]))
        out.append(mergeCase("unknown-query", edit: { $0.replacingOccurrences(of: "bat,q,", with: "bat,zz,") }, expect: ["timings.csv:2"]))
        out.append(mergeCase("rows-not-in-config", edit: { $0.replacingOccurrences(of: ",documents,20,", with: ",documents,21,") },
                             expect: ["timings.csv:2"]))
        out.append(mergeCase("result-rows-negative", edit: { editField($0, row: 1, index: 6, value: "-3") }, expect: ["timings.csv:2"]))
        out.append(mergeCase("truncated-row", edit: { csv in
            var lines = csv.components(separatedBy: "\n"); lines[1] = String(lines[1].prefix(60)); return lines.joined(separator: "\n")
        }, expect: ["timings.csv:2"]))
        out.append(mergeCase("extra-field", edit: { csv in
            var lines = csv.components(separatedBy: "\n"); lines[1] += ",9"; return lines.joined(separator: "\n")
        }, expect: ["timings.csv:2"]))
        out.append(mergeCase("unclosed-quote", edit: { $0.replacingOccurrences(of: "union-flattening=on\"", with: "union-flattening=on") },
                             expect: ["timings.csv:2"]))
        out.append(mergeCase("header-changed", edit: { $0.replacingOccurrences(of: "total_us,", with: "total_ms,") }, expect: ["timings.csv:1"]))
        out.append(mergeCase("binary-timings", edit: { _ in String(decoding: (0..<300).map { UInt8(($0 * 53 + 7) & 0xff) }, as: UTF8.self) },
                             expect: ["timings.csv"]))
        out.append(mergeCase("config-differs", file: "config.yaml", edit: { $0.replacingOccurrences(of: "seed: 1", with: "seed: 2") },
                             expect: ["config.yaml"]))
        out.append(mergeCase("config-garbage", file: "config.yaml", edit: { _ in "name: [\n" }, expect: ["config.yaml"]))
        out.append(mergeCase("run-txt-garbage", file: "run.txt", edit: { _ in "shard: banana\n" }, expect: ["run.txt"]))
        var noTimings = directory("s1", as: "s1").merging(directory("s2", as: "s2")) { a, _ in a }
        noTimings["s1/timings.csv"] = nil
        out.append(BatteryCase("merge/missing-timings", ["merge", "s1", "s2", "--out", "m"], files: noTimings, expect: ["s1"]))
        let shards = directory("s1", as: "s1").merging(directory("s2", as: "s2")) { a, _ in a }
        out.append(BatteryCase("merge/out-empty", ["merge", "s1", "s2", "--out", ""], files: shards, expect: ["--out"]))
        out.append(BatteryCase("merge/out-blank", ["merge", "s1", "s2", "--out", " "], files: shards, expect: ["--out"]))
        out.append(BatteryCase("merge/out-root", ["merge", "s1", "s2", "--out", "/"], files: shards, expect: ["--out"]))
        out.append(BatteryCase("merge/out-unmakeable", ["merge", "s1", "s2", "--out", "/proc/testbed-battery"], files: shards,
                               expect: ["--out: cannot create directory"]))
        out.append(BatteryCase("merge/out-is-file", ["merge", "s1", "s2", "--out", "s1/run.txt"], files: shards, expect: ["--out"]))
        out.append(BatteryCase("merge/missing-shard", ["merge", "s1", "nothere", "--out", "m"], files: directory("s1", as: "s1"),
                               expect: ["nothere"]))
        out.append(BatteryCase("merge/same-shard-twice", ["merge", "s1", "s1", "--out", "m"], files: directory("s1", as: "s1"),
                               expect: ["s1"]))
        out.append(BatteryCase("merge/no-directories", ["merge", "--out", "m"], expect: ["directories"]))
        out.append(BatteryCase("merge/unknown-flag", ["merge", "s1", "s2", "--fast"], files: shards, expect: ["--fast"]))

        // compare: summary.csv row 2, fields after the flags column (11 = total median).
        for (tag, value) in badTimes {
            out.append(compareCase("median-\(tag)", edit: { editField($0, row: 1, index: 11, value: value) }, expect: ["summary.csv:2"]))
        }
        out.append(compareCase("min-nan", edit: { editField($0, row: 1, index: 12, value: "nan") }, expect: ["summary.csv:2"]))
        out.append(compareCase("max-negative", edit: { editField($0, row: 1, index: 13, value: "-1") }, expect: ["summary.csv:2"]))
        out.append(compareCase("repetitions-beyond", edit: { editField($0, row: 1, index: 1, value: "9") }, expect: ["summary.csv:2"]))
        out.append(compareCase("repetitions-zero", edit: { editField($0, row: 1, index: 1, value: "0") }, expect: ["summary.csv:2"]))
        out.append(compareCase("unknown-flagset", edit: { editField($0, row: 1, index: 0, value: "turbo") }, expect: ["summary.csv:2"]))
        out.append(compareCase("unknown-flags", edit: { $0.replacingOccurrences(of: "select-pushdown=on", with: "warp-drive=on") },
                               expect: ["summary.csv:2"]))
        out.append(compareCase("unknown-engine", edit: { $0.replacingOccurrences(of: ",memory,testbed,", with: ",memory,oracle,") },
                               expect: ["summary.csv:2"]))
        out.append(compareCase("unknown-backend", edit: { $0.replacingOccurrences(of: ",memory,testbed,", with: ",postgres,testbed,") },
                               expect: ["summary.csv:2"]))
        out.append(compareCase("truncated-row", edit: { csv in
            var lines = csv.components(separatedBy: "\n"); lines[1] = String(lines[1].prefix(50)); return lines.joined(separator: "\n")
        }, expect: ["summary.csv:2"]))
        out.append(compareCase("header-changed", edit: { $0.replacingOccurrences(of: "total_us_median", with: "total") },
                               expect: ["summary.csv:1"]))
        out.append(compareCase("empty-summary", edit: { _ in "" }, expect: ["summary.csv"]))
        out.append(compareCase("binary-summary", edit: { _ in String(decoding: (0..<300).map { UInt8(($0 * 91 + 3) & 0xff) }, as: UTF8.self) },
                               expect: ["summary.csv"]))
        out.append(compareCase("baseline-unknown", edit: { $0 }, expect: ["--baseline"], extra: ["--baseline", "nope"]))
        out.append(compareCase("baseline-empty", edit: { $0 }, expect: ["--baseline"], extra: ["--baseline", ""]))
        out.append(compareCase("baseline-bad-canonical", edit: { $0 }, expect: ["--baseline"], extra: ["--baseline", "warp-drive=on"]))
        out.append(compareCase("baseline-set-twice", edit: { $0 }, expect: ["--baseline"],
                               extra: ["--baseline", "subtree-copying=off,subtree-copying=on"]))
        out.append(BatteryCase("compare/missing-dir", ["compare", "nothere"], expect: ["nothere"]))
        out.append(BatteryCase("compare/not-a-run", ["compare", "d"], files: ["d/readme": "x"], expect: ["d"]))
        out.append(BatteryCase("compare/unknown-flag", ["compare", "full", "--wide"], files: directory("full", as: "full"), expect: ["--wide"]))
        out += twoRunCases + reportCases
        return out
    }

    /// `compare RUN_A RUN_B [--tolerance T]`.
    static var twoRunCases: [BatteryCase] {
        let full = directory("full", as: "full")
        let both = full.merging(directory("full", as: "again")) { a, _ in a }
        var other = directory("full", as: "other")
        other["other/config.yaml"] = other["other/config.yaml"]?.replacingOccurrences(of: "name: bat", with: "name: bat2")
        other["other/timings.csv"] = other["other/timings.csv"]?.replacingOccurrences(of: "\nbat,", with: "\nbat2,")
        return [
            BatteryCase("compare/three-runs", ["compare", "full", "again", "full"], files: both, expect: ["give one run directory, or two"]),
            BatteryCase("compare/tolerance-one-run", ["compare", "full", "--tolerance", "0.1"], files: full, expect: ["--tolerance"]),
            BatteryCase("compare/tolerance-text", ["compare", "full", "again", "--tolerance", "much"], files: both, expect: ["--tolerance", "much"]),
            BatteryCase("compare/tolerance-negative", ["compare", "full", "again", "--tolerance=-0.5"], files: both, expect: ["--tolerance"]),
            BatteryCase("compare/tolerance-nan", ["compare", "full", "again", "--tolerance", "nan"], files: both, expect: ["--tolerance"]),
            BatteryCase("compare/baseline-two-runs", ["compare", "full", "again", "--baseline", "all-on"], files: both, expect: ["--baseline"]),
            BatteryCase("compare/run-b-missing", ["compare", "full", "nothere"], files: full, expect: ["RUN_B", "nothere"]),
            BatteryCase("compare/run-a-no-timings", ["compare", "d", "full"], files: full.merging(["d/config.yaml": full["full/config.yaml"] ?? ""]) { a, _ in a },
                        expect: ["RUN_A", "timings.csv"]),
            BatteryCase("compare/other-experiment", ["compare", "full", "other"], files: full.merging(other) { a, _ in a },
                        expect: ["compare two runs of one config"]),
            BatteryCase("compare/run-b-bad-timings", ["compare", "full", "again"],
                        files: both.merging(["again/timings.csv": editField(both["again/timings.csv"] ?? "", row: 1, index: 5, value: "-3")]) { _, b in b },
                        expect: ["timings.csv:2"]),
        ]
    }

    /// `report DIR`: nothing is written when the run's files do not read.
    static var reportCases: [BatteryCase] {
        var bad = directory("full", as: "full")
        bad["full/summary.csv"] = editField(bad["full/summary.csv"] ?? "", row: 1, index: 11, value: "nan")
        var badPasses = directory("full", as: "full")
        badPasses["full/timings.csv"] = editField(badPasses["full/timings.csv"] ?? "", row: 1, index: 1, value: "0")
        return [
            BatteryCase("compare/report-missing-dir", ["report", "nothere"], expect: ["nothere"]),
            BatteryCase("compare/report-not-a-run", ["report", "d"], files: ["d/readme": "x"], expect: ["config.yaml"]),
            BatteryCase("compare/report-bad-summary", ["report", "full"], files: bad, expect: ["summary.csv:2"]),
            BatteryCase("compare/report-bad-timings", ["report", "full"], files: badPasses, expect: ["timings.csv:2"]),
            BatteryCase("compare/report-no-dir", ["report"], expect: ["directory"]),
        ]
    }
}
