import Foundation

/// `testbed run CONFIG`: malformed experiment configs. The base config is valid and tiny;
/// each case replaces, inserts or removes lines, so the expected line number is known.
enum RunCases {
    static let base = [
        "name: bat",                      // 1
        "dataset:",                       // 2
        "  shape: documents",             // 3
        "  rows: [20]",                   // 4
        "  seed: 1",                      // 5
        "backend: [memory]",              // 6
        "queries:",                       // 7
        "  - name: q",                    // 8
        "    text: \"output documents\"",  // 9
        "flagsets:",                      // 10
        "  on: {preset: all-on}",         // 11
        "repetitions: 1",                 // 12
        "warmup: 0",                      // 13
        "plans: false",                   // 14
    ]

    static func text(_ edits: [Int: String?] = [:], append: [String] = []) -> String {
        var lines: [String] = []
        for (index, line) in base.enumerated() {
            if let edit = edits[index + 1] { if let replacement = edit { lines.append(replacement) } } else { lines.append(line) }
        }
        return (lines + append).joined(separator: "\n") + "\n"
    }

    /// A case running `run exp.yaml` with line `n` replaced by `line`.
    static func line(_ name: String, _ n: Int, _ line: String?, expect: [String]) -> BatteryCase {
        BatteryCase("run/" + name, ["run", "exp.yaml"], files: ["exp.yaml": text([n: line])], expect: expect)
    }

    static func config(_ name: String, _ text: String, expect: [String], extra: [String] = []) -> BatteryCase {
        BatteryCase("run/" + name, ["run", "exp.yaml"] + extra, files: ["exp.yaml": text], expect: expect)
    }

    static func raw(_ name: String, _ data: Data, expect: [String]) -> BatteryCase {
        BatteryCase("run/" + name, ["run", "exp.yaml"], raw: ["exp.yaml": data], expect: expect)
    }

    static var cases: [BatteryCase] {
        var out: [BatteryCase] = []
        // Numbers: repetitions and warmup.
        for (tag, value) in [("rep-max", "9223372036854775807"), ("rep-1e12", "1000000000000"),
                             ("rep-zero", "0"), ("rep-neg", "-1"), ("rep-overflow", "9223372036854775808"),
                             ("rep-float", "1.5"), ("rep-string", "many"), ("rep-list", "[1]"),
                             ("rep-hex-huge", "0xffffffffffffffffff"), ("rep-null", "null")] {
            out.append(line(tag, 12, "repetitions: \(value)", expect: ["exp.yaml:12", "repetitions"]))
        }
        for (tag, value) in [("warmup-max", "9223372036854775807"), ("warmup-1e12", "1000000000000"),
                             ("warmup-neg", "-3"), ("warmup-string", "yes please"), ("warmup-float", "0.5")] {
            out.append(line(tag, 13, "warmup: \(value)", expect: ["exp.yaml:13", "warmup"]))
        }
        out.append(config("rep-and-warmup-max", text([12: "repetitions: 9223372036854775807", 13: "warmup: 9223372036854775807"]),
                          expect: ["exp.yaml:12", "repetitions"]))
        out.append(config("rep-max-resume", text([12: "repetitions: 9223372036854775807", 13: "warmup: 1"]),
                          expect: ["exp.yaml:12", "repetitions"], extra: ["--resume", "--out", "runs"]))
        // Dataset rows, seed, shape, params.
        for (tag, value) in [("rows-zero", "[0]"), ("rows-neg", "[-5]"), ("rows-max", "[9223372036854775807]"),
                             ("rows-overflow", "[99999999999999999999]"), ("rows-empty", "[]"), ("rows-string", "[a]"),
                             ("rows-float", "[2.5]"), ("rows-too-big", "[100000001]")] {
            out.append(line(tag, 4, "  rows: \(value)", expect: ["exp.yaml:4", "dataset.rows"]))
        }
        out.append(line("rows-twice", 4, "  rows: [20, 30, 20]", expect: ["exp.yaml:4", "dataset.rows[2]", "listed twice (also [0])"]))
        out.append(line("rows-exponent", 4, "  rows: [1e3]", expect: ["exp.yaml:4", "dataset.rows[0]", "write '1e3' as 1000"]))
        out.append(line("rep-exponent", 12, "repetitions: 2e0", expect: ["exp.yaml:12", "write '2e0' as 2"]))
        // Said what was found, not the 64-bit range.
        out.append(line("rows-quoted", 4, "  rows: [\"20\"]", expect: ["exp.yaml:4", "dataset.rows[0]", "found the text '20'; write the number without quotes"]))
        out.append(line("rows-null", 4, "  rows: [null]", expect: ["exp.yaml:4", "dataset.rows[0]", "empty entry (null)"]))
        out.append(line("rows-huge", 4, "  rows: [99999999999999999999999999]", expect: ["exp.yaml:4", "'99999999999999999999999999' is out of range"]))
        out.append(line("rep-bool", 12, "repetitions: true", expect: ["exp.yaml:12", "expected an integer, found 'true'"]))
        out.append(config("out-twice", text(), expect: ["--out is given twice"], extra: ["--out", "a", "--out", "b"]))
        for (tag, value) in [("seed-neg", "-1"), ("seed-overflow", "18446744073709551616"), ("seed-string", "abc"),
                             ("seed-float", "1.25")] {
            out.append(line(tag, 5, "  seed: \(value)", expect: ["exp.yaml:5", "dataset.seed"]))
        }
        for (tag, value) in [("shape-unknown", "widgets"), ("shape-empty", "''"), ("shape-list", "[documents]"),
                             ("shape-number", "7"), ("shape-ctrl", "\"doc\\u001b[31m\"")] {
            out.append(line(tag, 3, "  shape: \(value)", expect: ["exp.yaml:3", "dataset.shape"]))
        }
        out.append(config("params-unknown", text(append: []).replacingOccurrences(of: "  seed: 1\n", with: "  seed: 1\n  params: {bogus: 1}\n"),
                          expect: ["exp.yaml:6", "dataset.params"]))
        out.append(config("params-roots-bad", text().replacingOccurrences(of: "  seed: 1\n", with: "  seed: 1\n  params: {roots: -7}\n"),
                          expect: ["exp.yaml:6", "dataset.params.roots"]))
        // Valid alone, but more roots than the 20 rows: still the parameter's mistake.
        out.append(config("params-roots-over-rows", text().replacingOccurrences(of: "  seed: 1\n", with: "  seed: 1\n  params: {roots: 21}\n"),
                          expect: ["exp.yaml:6", "dataset.params.roots", "20"]))
        out.append(config("params-max-depth-block", text().replacingOccurrences(of: "  seed: 1\n", with: "  seed: 1\n  params:\n    order: shuffled\n    max-depth: -1\n"),
                          expect: ["exp.yaml:8", "dataset.params.max-depth"]))
        out.append(config("params-roots-nan", text().replacingOccurrences(of: "  seed: 1\n", with: "  seed: 1\n  params: {roots: .nan}\n"),
                          expect: ["exp.yaml:6", "dataset.params.roots"]))
        out.append(config("params-list", text().replacingOccurrences(of: "  seed: 1\n", with: "  seed: 1\n  params: [roots]\n"),
                          expect: ["exp.yaml:6", "dataset.params"]))
        out.append(config("params-huge-memory", text([4: "  rows: [100000000]"]).replacingOccurrences(of: "  seed: 1\n", with: "  seed: 1\n  params: {order: shuffled}\n"),
                          expect: ["exp.yaml:4", "dataset.rows", "memory"]).withAvailableMemory(4_000_000_000))
        // Only the size that does not fit is named, and a resume checks it too.
        out.append(config("params-huge-memory-second", text([4: "  rows: [20, 100000000]"]).replacingOccurrences(of: "  seed: 1\n", with: "  seed: 1\n  params: {order: shuffled}\n"),
                          expect: ["exp.yaml:4", "dataset.rows[1]", "memory"]).withAvailableMemory(4_000_000_000))
        out.append(config("huge-memory-sqlite-baseline", text([4: "  rows: [100000000]", 6: "backend: [sqlite]"], append: ["baselines: [sqlite-analyzed]"]).replacingOccurrences(of: "  seed: 1\n", with: "  seed: 1\n  params: {selected: subtree}\n"),
                          expect: ["exp.yaml:4", "dataset.rows", "sqlite-analyzed"]))
        // Backends and baselines.
        for (tag, value) in [("backend-empty", "[]"), ("backend-unknown", "[postgres]"), ("backend-number", "3"),
                             ("backend-dup", "[memory, memory]"), ("backend-map", "{a: b}"), ("backend-null", "null")] {
            out.append(line(tag, 6, "backend: \(value)", expect: ["exp.yaml:6", "backend"]))
        }
        for (tag, value) in [("baselines-unknown", "[mysql]"), ("baselines-number", "[1]"), ("baselines-map", "{x: 1}")] {
            out.append(config(tag, text(append: ["baselines: \(value)"]), expect: ["exp.yaml:15", "baselines"]))
        }
        out.append(config("baseline-unknown", text(append: ["baseline: nope"]), expect: ["exp.yaml:15", "baseline"]))
        out.append(config("baseline-list", text(append: ["baseline: [on]"]), expect: ["exp.yaml:15", "baseline"]))
        // Flag sets.
        for (tag, value, key) in [
            ("flagset-unknown-preset", "  on: {preset: most-on}", "flagsets.on"),
            ("flagset-unknown-heuristic", "  on: {preset: all-on, disable: [teleport]}", "flagsets.on"),
            ("flagset-enable-disable", "  on: {preset: all-off, enable: [subtree-copying], disable: [subtree-copying]}", "flagsets.on"),
            ("flagset-bad-set", "  on: {preset: all-on, set: {join-filter-threshold: -7}}", "flagsets.on"),
            ("flagset-set-overflow", "  on: {preset: all-on, set: {join-filter-threshold: 99999999999999999999999}}", "flagsets.on"),
            ("flagset-unknown-key", "  on: {preset: all-on, switch: [x]}", "flagsets.on"),
            ("flagset-not-map", "  on: all-on", "flagsets.on"),
            ("flagset-name-slash", "  a/b: {preset: all-on}", "flagsets"),
            ("flagset-name-baseline", "  sqlite: {preset: all-on}", "flagsets"),
            ("flagset-name-ctrl", "  \"o\\tn\": {preset: all-on}", "flagsets"),
        ] {
            out.append(line(tag, 11, value, expect: ["exp.yaml:11", key]))
        }
        out.append(line("flagsets-empty", 11, nil, expect: ["exp.yaml:10", "flagsets"]))
        // Queries.
        for (tag, value, key) in [
            ("query-syntax", "    text: \"output documents join\"", "queries[0].text"),
            ("query-unknown-relation", "    text: \"output widgets\"", "queries[0].text"),
            ("query-unknown-attribute", "    text: \"output documents select (colour == 1)\"", "queries[0].text"),
            ("query-empty", "    text: \"\"", "queries[0]"),
            ("query-number", "    text: 12", "queries[0]"),
            ("query-ctrl", "    text: \"output \\u001b[2Jdocuments\"", "queries[0].text"),
            ("query-no-output", "    text: \"let x = documents\"", "queries[0].text"),
            ("query-huge-literal", "    text: \"output documents select (id == 99999999999999999999999)\"", "queries[0].text"),
        ] {
            out.append(line(tag, 9, value, expect: ["exp.yaml:9", key]))
        }
        out.append(config("query-unknown-catalog", text([8: "  - nosuchquery", 9: nil]), expect: ["exp.yaml:8", "queries[0]", "nosuchquery"]))
        // What SQLite would refuse only when a baseline prepares the statement, mid-run.
        let deep = (1...13).map { "      let b\($0) = b\($0 - 1) join b\($0 - 1)" }
        out.append(config("query-sqlite-expansion", text([9: "    text: |"], append: ["baselines: [sqlite]"]).replacingOccurrences(of: "    text: |\n",
            with: (["    text: |", "      let b0 = documents join documents"] + deep + ["      output b13"]).joined(separator: "\n") + "\n"),
                          expect: ["exp.yaml:9", "queries[0].text", "'q'", "table references"]))
        // A flat AND is written as SQLite parses it, one level per term (a long OR nests in
        // balanced halves since the twelfth session, so it no longer reaches the limit).
        out.append(config("query-sqlite-expression-depth",
                          text([9: "    text: \"output documents select (" + (0..<1100).map { "id != \($0)" }.joined(separator: " and ") + ")\"",
], append: ["baselines: [sqlite]"]),
                          expect: ["exp.yaml:9", "queries[0].text", "'q'", "depth"]))
        out.append(config("query-wrong-shape", text([8: "  - current-cats", 9: nil]), expect: ["exp.yaml:8", "queries[0]"]))
        out.append(config("query-missing-file", text([9: "    file: nothere.rq"]), expect: ["exp.yaml:9", "queries[0]"]))
        out.append(config("query-dup-name", text(append: []).replacingOccurrences(of: "    text: \"output documents\"\n",
                                                                                  with: "    text: \"output documents\"\n  - name: q\n    text: \"output documents\"\n"),
                          expect: ["exp.yaml:10", "queries[1]"]))
        out.append(config("queries-empty", text([7: "queries: []", 8: nil, 9: nil]), expect: ["exp.yaml:7", "queries"]))
        out.append(config("query-unknown-key", text([9: "    txt: \"output documents\""]), expect: ["exp.yaml:9", "queries[0]"]))
        out.append(config("query-name-slash", text([8: "  - name: a/b"]), expect: ["exp.yaml:8", "queries[0]"]))
        // Top level.
        out.append(config("unknown-top-key", text(append: ["colour: blue"]), expect: ["exp.yaml:15", "colour"]))
        out.append(config("duplicate-key", text(append: ["repetitions: 2"]), expect: ["exp.yaml:15", "repetitions"]))
        out.append(config("duplicate-dataset-key", text().replacingOccurrences(of: "  seed: 1\n", with: "  seed: 1\n  seed: 2\n"),
                          expect: ["exp.yaml:6", "dataset.seed"]))
        out.append(line("duplicate-flow-key", 11, "  on: {preset: all-on, preset: all-off}", expect: ["exp.yaml:11:24", "flagsets.on.preset"]))
        out.append(line("duplicate-query-key", 9, "    text: \"output documents\"\n    text: \"output documents\"",
                        expect: ["exp.yaml:10", "queries[0].text"]))
        out.append(line("duplicate-key-quoted", 13, "\"warmup\": 0\nwarmup: 1", expect: ["exp.yaml:14", "warmup"]))
        out.append(line("name-missing", 1, nil, expect: ["exp.yaml", "name"]))
        out.append(line("name-slash", 1, "name: ../escape", expect: ["exp.yaml:1", "name"]))
        out.append(line("name-empty", 1, "name: ''", expect: ["exp.yaml:1", "name"]))
        // The control character is shown as an escape, never echoed raw to the terminal.
        out.append(line("name-ctrl", 1, "name: \"a\\u0007b\"", expect: ["exp.yaml:1", "name", "'a\\u{7}b'"]))
        out.append(line("name-esc", 1, "name: \"a\\u001b[2Jb\"", expect: ["exp.yaml:1", "name", "'a\\u{1b}[2Jb'"]))
        out.append(line("name-list", 1, "name: [a]", expect: ["exp.yaml:1", "name"]))
        out.append(line("plans-string", 14, "plans: maybe", expect: ["exp.yaml:14", "plans"]))
        out.append(config("dataset-scalar", text([2: "dataset: documents", 3: nil, 4: nil, 5: nil]), expect: ["exp.yaml:2", "dataset"]))
        out.append(config("dataset-missing", text([2: nil, 3: nil, 4: nil, 5: nil]), expect: ["exp.yaml", "dataset"]))
        // YAML syntax and encodings.
        out.append(line("yaml-unclosed-bracket", 4, "  rows: [20", expect: ["exp.yaml:"]))
        out.append(line("yaml-bad-indent", 5, "     seed: 1", expect: ["exp.yaml:5"]))
        out.append(line("yaml-tab-indent", 5, "\tseed: 1", expect: ["exp.yaml:5"]))
        out.append(line("yaml-unclosed-quote", 9, "    text: \"output documents", expect: ["exp.yaml:"]))
        out.append(line("yaml-ctrl-char", 1, "name: ba\u{1}t", expect: ["exp.yaml:1:9", "U+0001"]))
        out.append(line("yaml-ctrl-char-later", 9, "    text: \"output \u{7}documents\"", expect: ["exp.yaml:9:19", "U+0007"]))
        out.append(config("yaml-top-list", "- a\n- b\n", expect: ["exp.yaml"]))
        out.append(config("yaml-scalar", "just text\n", expect: ["exp.yaml"]))
        out.append(config("yaml-empty", "", expect: ["exp.yaml"]))
        out.append(config("yaml-anchor-bomb", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                          + "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                          + "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n", expect: ["exp.yaml"]))
        out.append(config("yaml-deep-nesting", String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "\n",
                          expect: ["exp.yaml"]))
        out.append(raw("binary", Data((0..<512).map { UInt8(($0 * 37 + 11) & 0xff) }), expect: ["exp.yaml"]))
        out.append(raw("utf16le", Data([0xff, 0xfe]) + text().data(using: .utf16LittleEndian)!, expect: ["exp.yaml"]))
        out.append(raw("utf16be-nobom", text().data(using: .utf16BigEndian)!, expect: ["exp.yaml"]))
        out.append(raw("invalid-utf8", Data(text().utf8) + Data([0xc3, 0x28, 0x0a]), expect: ["exp.yaml"]))
        out.append(raw("nul-bytes", Data("name: b\0at\n".utf8) + Data(text([1: nil]).utf8), expect: ["exp.yaml"]))
        // Files and options.
        // A tag of the config's own was ignored (`seed: !foo 1` ran with seed 1).
        out.append(line("custom-tag-scalar", 5, "  seed: !foo 1", expect: ["exp.yaml:5", "dataset.seed", "the tag !foo"]))
        out.append(line("custom-tag-mapping", 11, "  on: !flags {preset: all-on}", expect: ["exp.yaml:11", "the tag !flags"]))
        // A pass named twice is refused as a repeated backend or size is (it was accepted).
        out.append(config("disabled-pass-twice", text(append: ["disabled-passes: [select-folding, nested-union-folding, select-folding]"]),
                          expect: ["disabled-passes[2]", "'select-folding' is listed twice (also [0])"]))
        out.append(config("disable-pass-option-twice", text(), expect: ["--disable-pass", "'select-folding' is given twice"],
                          extra: ["--disable-pass", "select-folding", "--disable-pass", "select-folding"]))
        out.append(BatteryCase("run/missing-file", ["run", "nothere.yaml"], expect: ["nothere.yaml"]))
        out.append(BatteryCase("run/directory-as-config", ["run", "sub"], files: ["sub/x": "x"], expect: ["sub"]))
        out.append(BatteryCase("run/out-empty", ["run", "exp.yaml", "--out", ""], files: ["exp.yaml": text()], expect: ["--out"]))
        out.append(BatteryCase("run/out-blank", ["run", "exp.yaml", "--out", "  "], files: ["exp.yaml": text()], expect: ["--out"]))
        // YAML 1.1 reads these as other numbers (8, 16, 90, 10) or text; a config integer is decimal digits.
        out.append(line("seed-octal", 5, "  seed: 010", expect: ["exp.yaml:5:3", "dataset.seed", "'010'", "reads it as 8"]))
        out.append(line("seed-hex", 5, "  seed: 0x10", expect: ["exp.yaml:5:3", "'0x10'", "reads it as 16"]))
        out.append(line("seed-sexagesimal", 5, "  seed: 1:30", expect: ["'1:30'", "reads it as 90"]))
        out.append(line("rows-underscore", 4, "  rows: [1_0]", expect: ["dataset.rows[0]", "'1_0'"]))
        out.append(line("repetitions-binary", 12, "repetitions: 0b11", expect: ["exp.yaml:12:1", "repetitions", "'0b11'"]))
        out.append(line("repetitions-str-tag", 12, "repetitions: !!str 1", expect: ["repetitions", "tagged as text"]))
        out.append(line("seed-float-tag", 5, "  seed: !!float 3", expect: ["exp.yaml:5", "dataset.seed", "tagged tag:yaml.org,2002:float"]))
        // A plus sign too: `+5` was read as 5 here while `--rows +5` is refused.
        out.append(line("rows-plus", 4, "  rows: [+20]", expect: ["exp.yaml:4", "dataset.rows[0]", "'+20'", "plus sign"]))
        out.append(line("repetitions-plus", 12, "repetitions: +1", expect: ["exp.yaml:12", "repetitions", "'+1'"]))
        // A negative seed is a number out of the seed's range, not "not an integer".
        out.append(line("seed-negative", 5, "  seed: -1", expect: ["exp.yaml:5:3", "dataset.seed", "'-1' is out of range"]))
        // Shape parameters are text, read by the same decimal rule: `010` read as 10 (YAML
        // 1.1's 8), `+5` as 5 and `!!int "3"` as 3, without a word.
        let params = [5: "  seed: 1\n  params: {selected: @}"]
        for (tag, value, expect) in [("params-octal", "010", ["exp.yaml:6", "dataset.params.selected", "'010'", "reads it as 8"]),
                                     ("params-plus", "+5", ["dataset.params.selected", "'+5'", "reads it as 5"]),
                                     ("params-int-tag", "!!int \"3\"", ["exp.yaml:6", "dataset.params.selected", "tagged"]),
                                     ("params-quoted-octal", "\"010\"", ["exp.yaml:6", "dataset.params.selected", "'010' is not valid"]),
                                     ("params-quoted-plus", "'+2'", ["dataset.params.max-depth", "decimal digits"])] {
            let edits = params.mapValues { $0.replacingOccurrences(of: "selected", with: tag == "params-quoted-plus" ? "max-depth" : "selected")
                .replacingOccurrences(of: "@", with: value) }
            out.append(config(tag, text(edits), expect: expect))
        }
        // A null list entry is said as such, not as a name containing `~`.
        out.append(config("queries-null-entry", text([7: "queries: [~]", 8: nil, 9: nil]),
                          expect: ["exp.yaml:7", "queries[0]", "empty entry (null)"]))
        out.append(config("backend-null-entry", text([6: "backend: [memory, null]"]), expect: ["exp.yaml:6", "backend[1]", "null"]))
        out.append(BatteryCase("run/out-root", ["run", "exp.yaml", "--out", "/"], files: ["exp.yaml": text()], expect: ["--out"]))
        // A directory the system will not make (a read-only volume, here /proc) is named by its option.
        out.append(BatteryCase("run/out-unmakeable", ["run", "exp.yaml", "--out", "/proc/testbed-battery"], files: ["exp.yaml": text()],
                               expect: ["--out: cannot create directory"]))
        out.append(BatteryCase("run/out-file", ["run", "exp.yaml", "--out", "exp.yaml"], files: ["exp.yaml": text()], expect: ["--out"]))
        out.append(BatteryCase("run/out-ctrl", ["run", "exp.yaml", "--out", "r\u{1b}un"], files: ["exp.yaml": text()], expect: ["--out"]))
        for (tag, value) in [("shard-zero", "0/2"), ("shard-beyond", "3/2"), ("shard-text", "x"), ("shard-neg", "-1/2"),
                             ("shard-overflow", "1/99999999999999999999"), ("shard-empty", ""), ("shard-zero-total", "1/0"),
                             ("shard-plus", "+1/2"), ("shard-plus-total", "1/+2"), ("shard-leading-zero", "01/2")] {
            out.append(BatteryCase("run/" + tag, ["run", "exp.yaml", "--shard", value], files: ["exp.yaml": text()], expect: ["--shard"]))
        }
        out.append(BatteryCase("run/resume-missing-dir", ["run", "exp.yaml", "--resume", "--out", "nothere"], files: ["exp.yaml": text()],
                               expect: ["nothere"]))
        out.append(BatteryCase("run/unknown-flag", ["run", "exp.yaml", "--turbo"], files: ["exp.yaml": text()], expect: ["--turbo"]))
        out.append(BatteryCase("run/no-config", ["run"], expect: ["config"]))
        out += changeCases
        return out
    }

    /// Malformed `changes:` and `modes:` (lines 15 on are appended to the valid base).
    static var changeCases: [BatteryCase] {
        func changes(_ tag: String, _ lines: [String], expect: [String], files: [String: String] = [:]) -> BatteryCase {
            var all = files
            all["exp.yaml"] = text(append: lines)
            return BatteryCase("run/changes-" + tag, ["run", "exp.yaml"], files: all, expect: expect)
        }
        return [
            changes("unknown-key", ["changes:", "  session: edit", "  sesion-seed: 3"], expect: ["exp.yaml:17", "changes", "sesion-seed"]),
            changes("session-unknown", ["changes:", "  session: brows"], expect: ["exp.yaml:16", "changes.session", "ui-browse"]),
            changes("session-other-shape", ["changes:", "  session: tag"], expect: ["exp.yaml:16", "changes.session"]),
            changes("session-and-script", ["changes:", "  session: edit", "  script: s.changes"], expect: ["exp.yaml:17", "changes.script"]),
            changes("neither", ["changes:", "  transactions: 5"], expect: ["exp.yaml:15", "changes", "session"]),
            changes("not-a-mapping", ["changes: edit"], expect: ["exp.yaml:15", "changes"]),
            changes("null", ["changes:"], expect: ["exp.yaml:15", "changes"]),
            changes("transactions-zero", ["changes:", "  session: edit", "  transactions: 0"], expect: ["exp.yaml:17", "changes.transactions"]),
            changes("transactions-huge", ["changes:", "  session: edit", "  transactions: 99999999999"], expect: ["exp.yaml:17", "changes.transactions"]),
            changes("session-adds-too-many", ["changes:", "  session: mixed", "  transactions: 1000000", "  params: {import-size: 10000}"],
                    expect: ["exp.yaml:17", "changes.transactions", "may add 10000000000"]),
            changes("transactions-string", ["changes:", "  session: edit", "  transactions: many"], expect: ["exp.yaml:17", "changes.transactions"]),
            changes("seed-negative", ["changes:", "  session: edit", "  seed: -1"], expect: ["exp.yaml:17", "changes.seed"]),
            changes("params-unknown", ["changes:", "  session: ui-browse", "  params: {cousin: 2}"], expect: ["exp.yaml:17", "changes.params.cousin"]),
            changes("params-negative", ["changes:", "  session: ui-browse", "  params: {child: -1}"], expect: ["exp.yaml:17", "changes.params.child"]),
            changes("params-all-zero", ["changes:", "  session: ui-browse", "  params: {other: 0, sibling: 0, child: 0, parent: 0}"],
                    expect: ["exp.yaml:17", "changes.params"]),
            changes("params-with-script", ["changes:", "  script: s.changes", "  params: {child: 1}"], expect: ["exp.yaml:17", "changes.params"],
                    files: ["s.changes": "update selected_documents set [id = 2]\n"]),
            changes("seed-with-script", ["changes:", "  script: s.changes", "  seed: 7"], expect: ["exp.yaml:17", "changes.seed", "script"],
                    files: ["s.changes": "update selected_documents set [id = 2]\n"]),
            changes("script-missing", ["changes:", "  script: nope.changes"], expect: ["exp.yaml:16", "changes.script", "nope.changes"]),
            changes("script-unknown-attribute", ["changes:", "  script: s.changes"], expect: ["exp.yaml:16", "changes.script", "s.changes:1"],
                    files: ["s.changes": "update documents set [nam = 1]\n"]),
            changes("script-unclosed", ["changes:", "  script: s.changes"], expect: ["exp.yaml:16", "changes.script", "commit"],
                    files: ["s.changes": "begin\ndelete documents where (id == 1)\n"]),
            changes("script-fewer-transactions", ["changes:", "  script: s.changes", "  transactions: 5"],
                    expect: ["exp.yaml:17", "changes.transactions", "1 transactions"],
                    files: ["s.changes": "update selected_documents set [id = 2]\n"]),
            changes("modes-unknown", ["changes:", "  session: edit", "modes: [incremental, requry]"], expect: ["exp.yaml:17", "modes[1]", "requery"]),
            changes("modes-duplicate", ["changes:", "  session: edit", "modes: [requery, requery]"], expect: ["exp.yaml:17", "modes[1]", "twice"]),
            changes("modes-empty", ["changes:", "  session: edit", "modes: []"], expect: ["exp.yaml:17", "modes"]),
            changes("modes-without-changes", ["modes: [requery]"], expect: ["exp.yaml:15", "modes", "changes"]),
            changes("with-baselines", ["baselines: [sqlite]", "changes:", "  session: edit"], expect: ["exp.yaml:15", "baselines"]),
        ]
    }
}
