import Foundation

/// Malformed `.rq` query files, each run through `query`, `plan`, `queries --directory` and
/// `verify --directory` (a catalog of one file), plus each command's own options.
enum QueryCases {
    /// (tag, file text, expected line of the error in bad.rq; end-of-input errors are on the line after the last newline)
    static let files: [(String, String, Int)] = [
        ("syntax-dangling-join", "# shape: documents\noutput documents join\n", 3),
        ("syntax-unclosed-paren", "# shape: documents\noutput (documents select (id == 1)\n", 3),
        ("syntax-bad-token", "# shape: documents\noutput documents $ documents\n", 2),
        ("unknown-relation", "# shape: documents\noutput widgets\n", 2),
        ("unknown-attribute", "# shape: documents\noutput documents select (colour == 1)\n", 2),
        ("unknown-project-attribute", "# shape: documents\noutput documents project [nope]\n", 2),
        ("rename-unknown", "# shape: documents\noutput documents rename [nope -> x]\n", 2),
        ("unknown-shape", "# shape: widgets\noutput documents\n", 1),
        ("empty-shape", "# shape:\noutput documents\n", 1),
        ("two-shapes", "# shape: documents\n# shape: pets\noutput documents\n", 2),
        ("no-output", "# shape: documents\nlet x = documents\n", 3),
        ("let-rebound", "# shape: documents\nlet x = documents\nlet x = documents\noutput x\n", 3),
        ("ctrl-char", "# shape: documents\noutput docu\u{1b}[31mments\n", 2),
        ("invalid-utf8", "# shape: documents\noutput documents \u{FFFD}\n", 2),
        ("invalid-utf8-in-string", "# shape: documents\noutput documents select (name == \"caf\u{FFFD}\")\n", 2),
        ("invalid-utf8-in-comment", "# shape: documents\noutput documents  # caf\u{FFFD}\n", 2),
        ("union-mismatch", "# shape: documents\noutput documents union selected_documents\n", 2),
        ("huge-integer", "# shape: documents\noutput documents select (id == 99999999999999999999999)\n", 2),
        ("unterminated-string", "# shape: documents\noutput documents select (name == \"abc)\n", 2),
        ("bad-escape", "# shape: documents\noutput documents select (name == \"a\\qb\")\n", 2),
        ("crlf-syntax-error", "# shape: documents\r\noutput documents join\r\n", 3),
        ("bom-unknown-relation", "\u{FEFF}# shape: documents\noutput widgets\n", 2),
    ]

    static var cases: [BatteryCase] {
        var out: [BatteryCase] = []
        for (tag, text, line) in files {
            let where_ = "bad.rq:\(line)"
            out.append(BatteryCase("query/\(tag)", ["query", "bad.rq", "--rows", "20"], files: ["bad.rq": text], expect: [where_]))
            out.append(BatteryCase("plan/\(tag)", ["plan", "bad.rq", "--rows", "20", "--out", "p"], files: ["bad.rq": text], expect: [where_]))
            out.append(BatteryCase("queries/\(tag)", ["queries", "--directory", "cat"], files: ["cat/bad.rq": text], expect: [where_]))
            out.append(BatteryCase("verify/\(tag)", ["verify", "--directory", "cat", "--sizes", "20", "--no-reduce"],
                                   files: ["cat/bad.rq": text], expect: [where_]))
        }
        let good = ["q.rq": "# shape: documents\noutput documents select (id == 1)\n"]
        // query / plan options.
        for command in ["query", "plan"] {
            let extra = command == "plan" ? ["--out", "p"] : []
            func option(_ tag: String, _ arguments: [String], _ expect: String, memory: Int? = nil) {
                let item = BatteryCase("\(command)/\(tag)", [command, "q.rq"] + arguments + extra, files: good, expect: [expect])
                out.append(memory.map { item.withAvailableMemory($0) } ?? item)
            }
            option("rows-zero", ["--rows", "0"], "--rows")
            option("rows-neg", ["--rows", "-1"], "--rows")
            option("rows-too-big", ["--rows", "100000001"], "--rows")
            option("rows-max", ["--rows", "9223372036854775807"], "--rows")
            option("rows-overflow", ["--rows", "9223372036854775808"], "--rows")
            option("rows-text", ["--rows", "ten"], "--rows <rows>'; it takes a number")
            option("seed-text", ["--rows", "20", "--seed", "abc"], "--seed <seed>'; it takes a number")
            option("seed-neg", ["--rows", "20", "--seed", "-1"], "--seed")
            option("seed-neg-equals", ["--rows", "20", "--seed=-1"], "--seed <seed>'; it takes a number that is not negative")
            option("seed-overflow", ["--rows", "20", "--seed", "18446744073709551616"], "--seed <seed>'; the number is out of this option's range")
            option("shape-unknown", ["--rows", "20", "--shape", "widgets"], "--shape")
            option("shape-mismatch", ["--rows", "20", "--shape", "pets"], "q.rq")
            option("param-unknown", ["--rows", "20", "--param", "colour=blue"], "--param")
            option("param-no-equals", ["--rows", "20", "--param", "roots"], "--param")
            option("param-bad-value", ["--rows", "20", "--param", "roots=1.5"], "--param roots")
            option("param-over-rows", ["--rows", "20", "--param", "roots=21"], "--param roots")
            option("param-no-value", ["--rows", "20", "--param", "roots="], "--param")
            option("param-out-of-range", ["--rows", "20", "--param", "max-depth=-1"], "--param max-depth")
            option("param-impossible", ["--rows", "20", "--param", "max-depth=0"], "--param")
            option("param-empty", ["--rows", "20", "--param", ""], "--param")
            option("param-twice", ["--rows", "20", "--param", "roots=0.1", "--param", "roots=0.2"], "--param roots")
            option("backend-unknown", ["--rows", "20", "--backend", "postgres"], "--backend")
            option("preset-unknown", ["--rows", "20", "--preset", "most-on"], "--preset")
            option("enable-unknown", ["--rows", "20", "--enable", "teleport"], "--enable")
            option("disable-unknown", ["--rows", "20", "--disable", "teleport"], "--disable")
            option("enable-and-disable", ["--rows", "20", "--enable", "subtree-copying", "--disable", "subtree-copying"], "subtree-copying")
            option("set-twice", ["--rows", "20", "--set", "subtree-copy-limit=5", "--set", "subtree-copy-limit=6"], "--set")
            option("set-no-equals", ["--rows", "20", "--set", "subtree-copy-limit"], "--set")
            option("set-out-of-range", ["--rows", "20", "--set", "subtree-copy-limit=-4"], "--set")
            option("set-overflow", ["--rows", "20", "--set", "join-filter-threshold=99999999999999999999"], "--set")
            option("set-unknown", ["--rows", "20", "--set", "warp=9"], "--set")
            option("unknown-flag", ["--rows", "20", "--turbo"], "--turbo")
            // 100M documents on a machine with 4 GB available.
            option("memory-too-big", ["--rows", "100000000", "--param", "order=shuffled"], "memory", memory: 4_000_000_000)
            option("memory-too-big-sqlite", ["--rows", "100000000", "--backend", "sqlite"], "sqlite backend needs about",
                   memory: 4_000_000_000)
            option("backend-then-enable", ["--rows", "20", "--enable", "teleport", "--backend", "postgres"], "--enable")
            // A single-valued option or flag given twice is refused, not the last one taken.
            option("rows-exponent", ["--rows", "1e3"], "--rows <rows>'; it takes an integer in digits: write 1000")
            option("rows-fraction", ["--rows", "2.5"], "--rows <rows>'; it takes a whole number")
            // Integers in decimal digits, as configs write them: these were read as 20 and 1.
            option("rows-plus", ["--rows", "+20"], "--rows: '+20' is not written in decimal digits; write 20")
            option("rows-plus-equals", ["--rows=+20"], "--rows: '+20' is not written in decimal digits")
            option("rows-leading-zero", ["--rows", "020"], "--rows: '020' is not written in decimal digits")
            option("seed-plus", ["--rows", "20", "--seed", "+1"], "--seed: '+1' is not written in decimal digits")
            option("param-plus", ["--rows", "20", "--param", "max-depth=+3"], "--param max-depth: '+3' is not valid")
            option("param-selected-leading-zero", ["--rows", "20", "--param", "selected=05"], "--param selected: '05' is not valid")
            option("rows-twice", ["--rows", "20", "--rows", "30"], "--rows is given twice ('--rows 20', then '--rows 30')")
            option("rows-twice-equals", ["--rows=20", "--seed", "1", "--rows", "20"], "--rows is given twice")
            option("preset-twice", ["--rows", "20", "--preset", "all-on", "--preset", "seed"], "--preset is given twice")
            option("analyze-twice", ["--rows", "20", "--backend", "sqlite", "--analyze", "--analyze"], "--analyze is given twice")
            option("analyze-memory", ["--rows", "20", "--analyze"], "--analyze runs ANALYZE on the SQLite backend")
            option("analyze-plist-backend", ["--rows", "20", "--backend", "plist-file", "--analyze"], "--analyze")
        }
        // Query text is checked before a dataset is sized or generated.
        let dangling = ["bad.rq": "# shape: documents\noutput documents join\n"]
        out.append(BatteryCase("query/syntax-before-memory", ["query", "bad.rq", "--rows", "100000000"], files: dangling,
                               expect: ["bad.rq:3"]))
        out.append(BatteryCase("plan/syntax-before-memory", ["plan", "bad.rq", "--rows", "100000000", "--out", "p"],
                               files: dangling, expect: ["bad.rq:3"]))
        out.append(BatteryCase("query/disable-pass-unknown", ["query", "q.rq", "--rows", "20", "--disable-pass", "orphan-colection"],
                               files: good, expect: ["--disable-pass", "did you mean 'orphan-collection'"]))
        out.append(BatteryCase("query/disable-pass-twice", ["query", "q.rq", "--rows", "20", "--disable-pass", "select-folding",
                                                            "--disable-pass", "select-folding"],
                               files: good, expect: ["--disable-pass", "'select-folding' is given twice"]))
        out.append(BatteryCase("query/missing-file", ["query", "nothere.rq", "--rows", "20"], expect: ["nothere"]))
        out.append(BatteryCase("query/directory-as-file", ["query", "d", "--rows", "20"], files: ["d/x.rq": "x"], expect: ["d"]))
        out.append(BatteryCase("query/empty-file", ["query", "e.rq", "--rows", "20"], files: ["e.rq": ""], expect: ["e.rq"]))
        out.append(BatteryCase("query/no-argument", ["query"], expect: ["query"]))
        out.append(BatteryCase("plan/out-empty", ["plan", "q.rq", "--rows", "20", "--out", ""], files: good, expect: ["--out"]))
        out.append(BatteryCase("plan/out-blank", ["plan", "q.rq", "--rows", "20", "--out", "   "], files: good, expect: ["--out"]))
        out.append(BatteryCase("plan/out-root", ["plan", "q.rq", "--rows", "20", "--out", "/"], files: good, expect: ["--out"]))
        out.append(BatteryCase("plan/out-is-file", ["plan", "q.rq", "--rows", "20", "--out", "q.rq"], files: good, expect: ["--out"]))
        out.append(BatteryCase("plan/out-under-file", ["plan", "q.rq", "--rows", "20", "--out", "q.rq/p"], files: good,
                               expect: ["--out", "'q.rq' is a file"]))
        // A memory override that is not a byte count is named, not ignored.
        var unreadableMemory = BatteryCase("query/available-memory-not-bytes", ["query", "q.rq", "--rows", "20"], files: good,
                                           expect: ["TESTBED_AVAILABLE_MEMORY is '-5'"])
        unreadableMemory.environment["TESTBED_AVAILABLE_MEMORY"] = "-5"
        out.append(unreadableMemory)
        // `--engine` loads the generated data itself.
        out.append(BatteryCase("query/plist-with-rows-and-seed", ["query", "q.rq", "--plist", "pl", "--rows", "20", "--seed=3"],
                               files: good.merging(["pl/readme.txt": "x"]) { a, _ in a },
                               expect: ["--plist DIR runs on that database's rows; --rows, --seed would do nothing there; drop them"]))
        out.append(BatteryCase("query/engine-with-plist", ["query", "q.rq", "--rows", "20", "--engine", "sqlite", "--plist", "pl"],
                               files: good.merging(["pl/readme.txt": "x"]) { a, _ in a }, expect: ["--engine", "--plist"]))
        out.append(BatteryCase("query/engine-with-testbed-options", ["query", "q.rq", "--rows", "20", "--engine", "sqlite", "--preset", "seed",
                                                                  "--set", "subtree-copying=off", "--validate"],
                               files: good, expect: ["--engine runs the query on sqlite, where --preset, --set, --validate do nothing; drop them"]))
        out.append(BatteryCase("query/set-and-disabled", ["query", "q.rq", "--rows", "20", "--set", "subtree-copying=on", "--disable", "subtree-copying"],
                               files: good, expect: ["heuristic 'subtree-copying' is both set ('on') and named in disable"]))
        out.append(BatteryCase("query/engine-with-backend", ["query", "q.rq", "--rows", "20", "--engine", "sqlite", "--backend", "sqlite"],
                               files: good, expect: ["--engine", "--backend"]))
        // Thirteen levels of a self-join of the level below: 8,192 table references once SQLite
        // expands the shared parts, over its limit: the query, not a result.
        let doubling = (1...13).map { "let b\($0) = b\($0 - 1) join b\($0 - 1)" }.joined(separator: "\n")
        out.append(BatteryCase("query/engine-too-many-references", ["query", "deep.rq", "--rows", "20", "--engine", "sqlite"],
                               files: ["deep.rq": "# shape: documents\nlet b0 = documents\n\(doubling)\noutput b13\n"],
                               expect: ["--engine sqlite", "table references"]))
        out.append(BatteryCase("plan/out-ctrl", ["plan", "q.rq", "--rows", "20", "--out", "p\u{7}"], files: good, expect: ["--out"]))
        // queries.
        out.append(BatteryCase("queries/missing-directory", ["queries", "--directory", "/nonexistent-battery"], expect: ["/nonexistent-battery"]))
        out.append(BatteryCase("queries/empty-directory", ["queries", "--directory", "cat"], files: ["cat/readme.txt": "no queries"],
                               expect: ["cat"]))
        out.append(BatteryCase("queries/file-as-directory", ["queries", "--directory", "q.rq"], files: good, expect: ["q.rq"]))
        out.append(BatteryCase("queries/unknown-flag", ["queries", "--colour"], expect: ["--colour"]))
        // A query without a `# shape:` line cannot be checked (or run) against a dataset.
        let shapeless = ["cat/good.rq": good["q.rq"] ?? "", "cat/shapeless.rq": "output documents\n"]
        out.append(BatteryCase("queries/no-shape", ["queries", "--directory", "cat"], files: shapeless, expect: ["shapeless.rq:1:1"]))
        out.append(BatteryCase("verify/no-shape", ["verify", "--directory", "cat", "--sizes", "20", "--no-reduce"],
                               files: shapeless, expect: ["shapeless.rq:1:1"]))
        // The first bad file of several is reported, after good ones parsed.
        out.append(BatteryCase("queries/second-file-bad", ["queries", "--directory", "cat"],
                               files: ["cat/a.rq": good["q.rq"] ?? "", "cat/b.rq": "# shape: pets\noutput pets join\n"], expect: ["b.rq:3"]))
        out.append(BatteryCase("verify/memory-too-big", ["verify", "--directory", "cat", "--sizes", "20,100000000", "--no-reduce"],
                               files: ["cat/q.rq": good["q.rq"] ?? ""], expect: ["100000000 rows", "memory"]))
        return out
    }

    /// Output paths that cannot be made (refused before any missing parent is created) and
    /// change scripts without a transaction, across the commands that take them.
    static var pathsAndScripts: [BatteryCase] {
        let good = ["q.rq": "# shape: documents\noutput documents select (id == 1)\n"]
        let long = String(repeating: "x", count: 300)
        var cases = [
            BatteryCase("plan/out-dotdot-after-missing", ["plan", "q.rq", "--rows", "20", "--out", "zz/../pp"], files: good,
                        expect: ["--out", "'..' follows 'zz'"]),
            BatteryCase("plan/out-component-too-long", ["plan", "q.rq", "--rows", "20", "--out", "a/b/" + long], files: good,
                        expect: ["--out", "300 bytes long"]),
            BatteryCase("hunt/out-component-too-long", ["hunt", "--random", "1", "--out", "a/" + long],
                        expect: ["--out", "300 bytes long"]),
            BatteryCase("run/out-component-too-long", ["run", "exp.yaml", "--out", "a/" + long],
                        files: ["exp.yaml": RunCases.text()], expect: ["--out", "300 bytes long"]),
        ]
        // A change script without a transaction observes nothing: most likely the wrong file.
        for (tag, script) in [("empty", ""), ("comments-only", "# nothing yet\n\n")] {
            cases.append(BatteryCase("observe/changes-\(tag)", ["observe", "q.rq", "--rows", "20", "--changes", "s.changes"],
                                     files: good.merging(["s.changes": script]) { $1 }, expect: ["--changes", "has no transactions"]))
        }
        // A device never ends and a pipe without a writer never opens: not read at all.
        cases.append(BatteryCase("observe/changes-device", ["observe", "q.rq", "--rows", "20", "--changes", "/dev/zero"],
                                 files: good, expect: ["--changes", "not a regular file"]))
        cases.append(BatteryCase("run/changes-script-device", ["run", "exp.yaml"],
                                 files: ["exp.yaml": RunCases.text([9: "    text: \"output documents select (id == 1)\""],
                                                                   append: ["changes:", "  script: /dev/zero"])],
                                 expect: ["changes.script", "not a regular file"]))
        cases.append(BatteryCase("run/config-device", ["run", "/dev/zero"], expect: ["/dev/zero", "not a regular file"]))
        return cases
    }
}

/// CRLF line endings and a UTF-8 byte-order mark in `.rq` files must be accepted (exit 0).
enum AcceptedQueryCases {
    static let body = "# shape: documents\nlet d = documents select (id < 5)\noutput d\n"
    static let variants: [(String, Data)] = [
        ("crlf", Data(body.replacingOccurrences(of: "\n", with: "\r\n").utf8)),
        ("bom", Data([0xef, 0xbb, 0xbf]) + Data(body.utf8)),
        ("bom-crlf", Data([0xef, 0xbb, 0xbf]) + Data(body.replacingOccurrences(of: "\n", with: "\r\n").utf8)),
        ("crlf-no-final-newline", Data(body.replacingOccurrences(of: "\n", with: "\r\n").dropLast(1).utf8)),  // "\r\n" is one Character
    ]

    static var cases: [AcceptedCase] {
        var out: [AcceptedCase] = []
        for (tag, data) in variants {
            out.append(AcceptedCase(name: "query/\(tag)", arguments: ["query", "q.rq", "--rows", "20", "--verify"], files: ["q.rq": data]))
            out.append(AcceptedCase(name: "plan/\(tag)", arguments: ["plan", "q.rq", "--rows", "20", "--out", "p"], files: ["q.rq": data]))
            out.append(AcceptedCase(name: "queries/\(tag)", arguments: ["queries", "--directory", "cat"], files: ["cat/q.rq": data]))
            // One seed on one backend: the case is about reading the file. The verify grid grows
            // with every heuristic (6,480 flag sets: 15 s alone on an idle machine, 19,440 engine
            // runs), so these runs get a minute rather than a refusal's 15 s.
            out.append(AcceptedCase(name: "verify/\(tag)", arguments: ["verify", "--directory", "cat", "--sizes", "20",
                                                                     "--seeds", "1", "--backend", "memory", "--no-reduce"],
                                    files: ["cat/q.rq": data], timeout: 90))
        }
        return out
    }
}
