import Foundation

/// `generate`, `verify` (options and `--repro`), `flags`, `demo` and the top level.
enum OtherCases {
    static var generate: [BatteryCase] {
        var out: [BatteryCase] = []
        func gen(_ tag: String, _ arguments: [String], _ expect: String, files: [String: String] = [:]) {
            out.append(BatteryCase("generate/\(tag)", ["generate"] + arguments, files: files, expect: [expect]))
        }
        gen("no-shape", ["--rows", "20"], "--shape")
        gen("shape-unknown", ["--shape", "widgets", "--rows", "20"], "--shape")
        gen("rows-zero", ["--shape", "documents", "--rows", "0"], "--rows")
        gen("rows-neg", ["--shape", "documents", "--rows", "-20"], "--rows")
        gen("rows-too-big", ["--shape", "documents", "--rows", "100000001"], "--rows")
        gen("rows-max", ["--shape", "pets", "--rows", "9223372036854775807"], "--rows")
        gen("rows-overflow", ["--shape", "pets", "--rows", "99999999999999999999"], "--rows")
        gen("rows-text", ["--shape", "pets", "--rows", "many"], "--rows")
        gen("seed-neg", ["--shape", "pets", "--rows", "20", "--seed", "-2"], "--seed")
        gen("rows-plus", ["--shape", "pets", "--rows", "+20", "--csv", "out"], "--rows: '+20' is not written in decimal digits")
        gen("transactions-leading-zero", ["--shape", "documents", "--rows", "20", "--session", "ui-browse", "--transactions", "03", "--csv", "out"],
            "--transactions: '03' is not written in decimal digits")
        gen("session-param-plus", ["--shape", "documents", "--rows", "20", "--session", "import", "--session-param", "import-size=+3", "--changes-out", "c.txt"],
            "import-size")
        gen("param-unknown", ["--shape", "pets", "--rows", "20", "--param", "colour=red"], "--param")
        gen("param-bad", ["--shape", "documents", "--rows", "20", "--param", "roots=-1"], "--param")
        gen("param-no-value", ["--shape", "documents", "--rows", "20", "--param", "roots="], "--param")
        gen("param-overflow", ["--shape", "pets", "--rows", "20", "--param", "added=99999999999999999999"], "--param")
        gen("pets-added-huge", ["--shape", "pets", "--rows", "20", "--param", "added=100000000000"], "--param added")
        gen("param-twice", ["--shape", "pets", "--rows", "20", "--param", "added=1", "--param", "added=2"], "--param added")
        gen("param-no-equals", ["--shape", "pets", "--rows", "20", "--param", "added"], "--param")
        gen("rows-twice", ["--shape", "pets", "--rows", "20", "--rows", "30"], "--rows is given twice")
        gen("force-twice", ["--shape", "pets", "--rows", "20", "--sqlite", "x.sqlite", "--force", "--force"], "--force is given twice")
        gen("transactions-without-session", ["--shape", "documents", "--rows", "20", "--transactions", "5"], "--transactions: give --session")
        gen("session-seed-without-session", ["--shape", "documents", "--rows", "20", "--session-seed", "3"], "--session-seed: give --session")
        gen("param-empty", ["--shape", "pets", "--rows", "20", "--param", ""], "--param")
        gen("param-over-rows", ["--shape", "documents", "--rows", "20", "--param", "roots=21"], "--param roots")
        gen("param-choice", ["--shape", "documents", "--rows", "20", "--param", "order=random"], "--param order")
        gen("param-impossible", ["--shape", "documents", "--rows", "20", "--param", "max-depth=0"], "--param")
        gen("todo-tags-over-rows", ["--shape", "todo", "--rows", "20", "--param", "tags=201"], "--param tags")
        gen("employees-equipment-big", ["--shape", "employees", "--rows", "20", "--param", "max-equipment=1001"],
            "--param max-equipment")
        gen("memory-too-big", ["--shape", "employees", "--rows", "100000000", "--param", "max-equipment=1000", "--csv", "out"],
            "memory")
        gen("csv-empty", ["--shape", "pets", "--rows", "20", "--csv", ""], "--csv")
        gen("csv-blank", ["--shape", "pets", "--rows", "20", "--csv", " "], "--csv")
        gen("csv-root", ["--shape", "pets", "--rows", "20", "--csv", "/"], "--csv")
        gen("csv-is-file", ["--shape", "pets", "--rows", "20", "--csv", "f"], "--csv", files: ["f": "x"])
        gen("csv-nonempty-dir", ["--shape", "pets", "--rows", "20", "--csv", "d"], "--csv", files: ["d/x": "x"])
        gen("csv-missing-parent", ["--shape", "pets", "--rows", "20", "--csv", "a/b/c"], "--csv")
        gen("sqlite-empty", ["--shape", "pets", "--rows", "20", "--sqlite", ""], "--sqlite")
        gen("sqlite-root", ["--shape", "pets", "--rows", "20", "--sqlite", "/"], "--sqlite")
        gen("sqlite-directory", ["--shape", "pets", "--rows", "20", "--sqlite", "d"], "--sqlite", files: ["d/x": "x"])
        gen("sqlite-exists", ["--shape", "pets", "--rows", "20", "--sqlite", "f.sqlite"], "--sqlite", files: ["f.sqlite": "old"])
        gen("sqlite-missing-parent", ["--shape", "pets", "--rows", "20", "--sqlite", "no/dir/x.sqlite"], "--sqlite")
        gen("sqlite-ctrl", ["--shape", "pets", "--rows", "20", "--sqlite", "x\u{1b}.sqlite"], "--sqlite")
        gen("unknown-flag", ["--shape", "pets", "--rows", "20", "--zip"], "--zip")
        // Options of an output not asked for, and a change script that exists, are refused.
        gen("analyze-without-sqlite", ["--shape", "pets", "--rows", "20", "--csv", "c", "--analyze"], "--analyze")
        gen("plist-layout-without-plist", ["--shape", "pets", "--rows", "20", "--plist-layout", "plist-file"], "--plist-layout")
        gen("force-without-file", ["--shape", "pets", "--rows", "20", "--force"], "--force")
        gen("changes-out-exists", ["--shape", "documents", "--rows", "20", "--session", "ui-browse", "--changes-out", "s.changes"],
            "--force", files: ["s.changes": "old"])
        gen("changes-out-is-sqlite", ["--shape", "documents", "--rows", "20", "--sqlite", "d.db", "--session", "edit",
                                      "--changes-out", "d.db", "--force"], "--changes-out: 'd.db' is --sqlite's file")
        gen("changes-out-in-csv", ["--shape", "documents", "--rows", "20", "--csv", "c", "--session", "edit",
                                   "--changes-out", "c/s.changes"], "--changes-out: 'c/s.changes' is --csv's directory")
        gen("changes-out-is-plist", ["--shape", "documents", "--rows", "20", "--plist", "p", "--session", "edit",
                                     "--changes-out", "p"], "--plist's directory")
        gen("changes-out-under-file", ["--shape", "documents", "--rows", "20", "--session", "ui-browse", "--changes-out", "f/s.changes"],
            "'f' is a file", files: ["f": "x"])
        gen("changes-out-empty", ["--shape", "documents", "--rows", "20", "--session", "ui-browse", "--changes-out", ""],
            "--changes-out: '' is empty")
        // A change script that cannot be written is found before the dataset is: nothing of
        // either is left (the dataset was once written whole before the script failed).
        gen("changes-out-missing-directory", ["--shape", "documents", "--rows", "20", "--sqlite", "d.db", "--session", "edit",
                                              "--changes-out", "nodir/s.changes"], "--changes-out: 'nodir/s.changes' cannot be created: its directory 'nodir' does not exist")
        gen("changes-out-unwritable", ["--shape", "pets", "--rows", "20", "--csv", "c", "--session", "adopt",
                                       "--changes-out", "/proc/s.changes"], "--changes-out: cannot write '/proc/s.changes'")
        gen("changes-out-trailing-slash", ["--shape", "documents", "--rows", "20", "--plist", "p", "--session", "edit",
                                           "--changes-out", "x/"], "--changes-out: 'x/' ends in '/', which names a directory")
        gen("sqlite-trailing-slash", ["--shape", "documents", "--rows", "20", "--sqlite", "out/"],
            "--sqlite: 'out/' ends in '/', which names a directory")
        // Ten billion rows asked for; refused before the dataset is generated.
        gen("session-adds-too-many", ["--shape", "documents", "--rows", "20", "--session", "import", "--transactions", "1000000",
                                      "--session-param", "import-size=10000", "--changes-out", "s.changes"],
            "may add 10000000000")
        return out
    }

    static let flags = "initiator-ordering=smallest-estimate,join-filter-threshold=100,select-pushdown=on,"
        + "subtree-copy-limit=100,subtree-copying=on,union-flattening=on"
    static let goodManifest = "flags: \(flags)\nbackend: memory\nkind: reference\nbatch-size: 2\npartition: 0 1 2\n"
        + "table: t0 indexed [a] rows 1\ntable: t1 indexed [] rows 1\n"

    static func repro(_ tag: String, manifest: String, extra: [String: String] = [:], expect: [String]) -> BatteryCase {
        var files = ["r/manifest.txt": manifest, "r/query.rq": "output t0 join t1\n", "r/t0.csv": "a,d\n3,0\n",
                     "r/t1.csv": "a,c\n3.0,-1\n"]
        for (key, value) in extra { files[key] = value }
        return BatteryCase("verify/repro-\(tag)", ["verify", "--repro", "r"], files: files, expect: expect)
    }

    static var verify: [BatteryCase] {
        var out: [BatteryCase] = []
        func line(_ n: Int, _ replacement: String) -> String {
            var lines = goodManifest.components(separatedBy: "\n"); lines[n - 1] = replacement; return lines.joined(separator: "\n")
        }
        out.append(repro("unknown-kind", manifest: line(3, "kind: referense"), expect: ["manifest.txt:3"]))
        out.append(repro("unknown-key", manifest: goodManifest + "colour: blue\n", expect: ["manifest.txt:8"]))
        out.append(repro("not-key-value", manifest: goodManifest + "garbage line\n", expect: ["manifest.txt:8"]))
        out.append(repro("kind-twice", manifest: goodManifest + "kind: sqlite\n", expect: ["manifest.txt:8"]))
        out.append(repro("batch-zero", manifest: line(4, "batch-size: 0"), expect: ["manifest.txt:4"]))
        out.append(repro("batch-overflow", manifest: line(4, "batch-size: 99999999999999999999"), expect: ["manifest.txt:4"]))
        out.append(repro("partition-short", manifest: line(5, "partition: 0 1"), expect: ["manifest.txt:5"]))
        out.append(repro("backend-unknown", manifest: line(2, "backend: postgres"), expect: ["manifest.txt:2"]))
        out.append(repro("flags-unknown", manifest: line(1, "flags: warp=on"), expect: ["manifest.txt:1"]))
        out.append(repro("csv-outside", manifest: line(7, "table: ../secret indexed [] rows 1"),
                         extra: ["secret.csv": "a,c\n1,2\n"], expect: ["manifest.txt:7"]))
        out.append(repro("csv-absolute", manifest: line(7, "table: /etc/passwd indexed [] rows 1"), expect: ["manifest.txt:7"]))
        out.append(repro("table-missing-csv", manifest: line(7, "table: t9 indexed [] rows 1"), expect: ["t9"]))
        out.append(repro("rows-mismatch", manifest: line(7, "table: t1 indexed [] rows 5"), expect: ["manifest.txt:7"]))
        out.append(repro("index-unknown", manifest: line(6, "table: t0 indexed [zz] rows 1"), expect: ["manifest.txt:6"]))
        out.append(repro("query-syntax", manifest: goodManifest, extra: ["r/query.rq": "output t0 join join t1\n"], expect: ["query.rq:1:16"]))
        out.append(repro("query-syntax-at-end", manifest: goodManifest, extra: ["r/query.rq": "output t0 join\n"], expect: ["query.rq:2:1"]))
        out.append(repro("query-unknown-relation", manifest: goodManifest, extra: ["r/query.rq": "output t7\n"], expect: ["query.rq:1"]))
        out.append(repro("csv-truncated", manifest: goodManifest, extra: ["r/t0.csv": "a,d\n3\n"], expect: ["t0.csv:2"]))
        out.append(repro("no-manifest", manifest: goodManifest, extra: ["r/manifest.txt": ""], expect: ["manifest.txt:1", "empty"]))
        out.append(repro("blank-manifest", manifest: "\n  \n\n", expect: ["manifest.txt:1", "empty"]))
        out.append(repro("backend-later-line", manifest: "\n" + line(2, "backend: Memory"), expect: ["manifest.txt:3"]))
        out.append(repro("csv-bad-value", manifest: goodManifest, extra: ["r/t1.csv": "a,c\n3.0,zz\n"], expect: ["t1.csv:2", "zz"]))
        out.append(repro("csv-unterminated-quote", manifest: line(7, "table: t1 indexed [] rows 2"),
                         extra: ["r/t1.csv": "a,c\n3.0,-1\n1,\"open\n"], expect: ["t1.csv:3", "unterminated"]))
        out.append(repro("csv-empty", manifest: goodManifest, extra: ["r/t0.csv": ""], expect: ["t0.csv:1", "empty"]))
        out.append(repro("query-empty", manifest: goodManifest, extra: ["r/query.rq": ""], expect: ["query.rq"]))
        // A table's bytes are its values: ones that are not UTF-8 are refused, not made U+FFFD.
        out.append(BatteryCase("verify/repro-csv-not-utf8", ["verify", "--repro", "r"],
                               files: ["r/manifest.txt": goodManifest, "r/query.rq": "output t0 join t1\n", "r/t0.csv": "a,d\n3,0\n"],
                               raw: ["r/t1.csv": Data("a,c\n3.0,\"caf".utf8) + Data([0xE9]) + Data("\"\n".utf8)],
                               expect: ["t1.csv", "line 2 holds bytes that are not UTF-8 text"]))
        out.append(BatteryCase("verify/repro-missing-dir", ["verify", "--repro", "nothere"], expect: ["nothere"]))
        func opt(_ tag: String, _ arguments: [String], _ expect: String) {
            out.append(BatteryCase("verify/\(tag)", ["verify"] + arguments, expect: [expect]))
        }
        opt("directory-missing", ["--directory", "/nonexistent-battery"], "/nonexistent-battery")
        // Options of another mode were ignored without a word.
        opt("repro-with-seed", ["--repro", "r", "--seed", "3"], "--seed does not apply: --repro")
        opt("repro-with-max-reductions", ["--repro", "r", "--max-reductions", "3"], "--max-reductions does not apply: --repro")
        opt("catalog-with-seed", ["--sizes", "20", "--seed", "3"], "--seed does not apply: the catalog run")
        opt("catalog-with-runs-per-case", ["--runs-per-case", "2"], "--runs-per-case does not apply: the catalog run")
        opt("no-reduce-with-repro-directory", ["--random", "2", "--no-reduce", "--repro-directory", "zz"],
            "--repro-directory does not apply: --no-reduce")
        var validate = BatteryCase("verify/validate-env-banana", ["verify", "--random", "1"], expect: ["TESTBED_VALIDATE is 'banana'"])
        validate.environment["TESTBED_VALIDATE"] = "banana"
        out.append(validate)
        opt("sizes-too-big", ["--sizes", "100000001"], "--sizes")
        opt("sizes-max", ["--sizes", "9223372036854775807"], "--sizes")
        opt("sizes-zero", ["--sizes", "0"], "--sizes")
        opt("sizes-text", ["--sizes", "a,b"], "--sizes")
        opt("sizes-plus", ["--sizes", "20,+200"], "'+200' is not written in decimal digits")
        opt("seeds-negative", ["--seeds=1,-2"], "'-2' is out of this option's range")
        opt("sizes-empty", ["--sizes", ""], "--sizes")
        opt("seeds-neg", ["--seeds", "-1"], "--seeds")
        opt("random-zero", ["--random", "0"], "--random")
        opt("random-neg", ["--random", "-5"], "--random")
        opt("random-overflow", ["--random", "99999999999999999999"], "--random")
        opt("runs-per-case-zero", ["--runs-per-case", "0"], "--runs-per-case")
        opt("max-reductions-neg", ["--max-reductions", "-1"], "--max-reductions")
        opt("repro-directory-empty", ["--random", "1", "--repro-directory", ""], "--repro-directory")
        opt("repro-directory-root", ["--random", "1", "--repro-directory", "/"], "--repro-directory")
        opt("random-with-directory", ["--random", "3", "--directory", "x"], "--directory")
        opt("unknown-flag", ["--explode"], "--explode")
        // A list item twice or empty, and catalog options in another mode, are refused, not
        // run again or ignored.
        opt("sizes-twice", ["--sizes", "20,20"], "'20' is listed twice")
        opt("sizes-twice-no-number-hint", ["--sizes", "5,5"], "'5' is listed twice\n")
        opt("sizes-empty-item", ["--sizes", "20,,200"], "empty item")
        opt("seeds-twice", ["--seeds", "1,1"], "'1' is listed twice")
        opt("sizes-with-random", ["--random", "1", "--sizes", "20"], "--sizes")
        opt("seeds-with-repro", ["--repro", "r", "--seeds", "3"], "--seeds")
        // ArgumentParser reads `-1` as an option and would say the value is missing.
        opt("seed-negative-word", ["--random", "1", "--seed", "-1"], "--seed: '-1' is not valid")
        return out
    }

    /// `hunt`'s own options (its grid and where it writes), checked before any hunting.
    static var hunt: [BatteryCase] {
        [
            BatteryCase("hunt/max-reductions-leading-zero", ["hunt", "--random", "1", "--max-reductions", "03"],
                        expect: ["--max-reductions: '03' is not written in decimal digits"]),
            BatteryCase("hunt/flagsets-twice", ["hunt", "--random", "1", "--flagsets", "all-on,all-on"], expect: ["--flagsets", "listed twice"]),
            BatteryCase("hunt/flagsets-empty-item", ["hunt", "--random", "1", "--flagsets", "all-on,,seed"], expect: ["--flagsets", "empty item"]),
            // Options of another mode were ignored without a word.
            BatteryCase("hunt/repro-with-min-regret", ["hunt", "--repro", "r", "--min-regret", "3"], expect: ["--min-regret does not apply to --repro"]),
            BatteryCase("hunt/repro-with-out", ["hunt", "--repro", "r", "--out", "o"], expect: ["--out does not apply to --repro"]),
            BatteryCase("hunt/repro-with-seed", ["hunt", "--repro", "r", "--seed=4"], expect: ["--seed does not apply to --repro"]),
            BatteryCase("hunt/case-with-no-reduce", ["hunt", "--random", "3", "--case", "1", "--no-reduce"],
                        expect: ["--no-reduce does not apply to --case"]),
            BatteryCase("hunt/no-reduce-with-max-reductions", ["hunt", "--random", "2", "--no-reduce", "--max-reductions", "3"],
                        expect: ["--max-reductions selects cases to reduce; --no-reduce reduces none"]),
            BatteryCase("hunt/no-reduce-with-min-excess-rows", ["hunt", "--random", "2", "--no-reduce", "--min-excess-rows", "7"],
                        expect: ["--min-excess-rows selects cases to reduce"]),
            BatteryCase("hunt/case-with-orders", ["hunt", "--random", "3", "--case", "1", "--orders", "2"], expect: ["--orders does not apply"]),
            BatteryCase("hunt/plans-inside-repro", ["hunt", "--repro", "r", "--plans", "r/plans"], expect: ["--plans", "inside the repro directory"]),
            BatteryCase("hunt/repro-missing", ["hunt", "--repro", "nothere"], expect: ["--repro: 'nothere' is not a directory"]),
            BatteryCase("hunt/out-unmakeable", ["hunt", "--random", "1", "--out", "/proc/testbed-battery"],
                        expect: ["--out: cannot create directory"]),
            BatteryCase("hunt/out-under-file", ["hunt", "--random", "1", "--out", "f/x"], files: ["f": "x"], expect: ["--out", "'f' is a file"]),
            BatteryCase("hunt/plans-under-file", ["hunt", "--repro", "r", "--plans", "f/x"], files: ["f": "x"], expect: ["--plans", "'f' is a file"]),
        ]
    }

    static var flagsAndDemo: [BatteryCase] {
        [
            BatteryCase("flags/unknown-flag", ["flags", "--verbose"], expect: ["--verbose"]),
            BatteryCase("flags/extra-argument", ["flags", "extra"], expect: ["extra"]),
            BatteryCase("demo/unknown-example", ["demo", "--example", "nope"], expect: ["nope"]),
            BatteryCase("demo/empty-example", ["demo", "--example", ""], expect: ["--example"]),
            BatteryCase("demo/ctrl-example", ["demo", "--example", "x\u{1b}[2J"], expect: ["--example", "\\u{1b}"]),
            BatteryCase("demo/second-example-unknown", ["demo", "--example", "pets", "--example", "dogs"], expect: ["--example", "dogs"]),
            BatteryCase("demo/unknown-flag", ["demo", "--fast"], expect: ["--fast"]),
            BatteryCase("demo/extra-argument", ["demo", "extra"], expect: ["extra"]),
            BatteryCase("top/unknown-subcommand", ["frobnicate"], expect: ["frobnicate"]),
            BatteryCase("top/unknown-flag", ["--frobnicate"], expect: ["--frobnicate"]),
            BatteryCase("top/help-unknown-subcommand", ["help", "nope"], expect: ["'nope' is not a subcommand", "run"]),
            BatteryCase("top/help-unknown-nested", ["help", "run", "nope"], expect: ["'nope'", "`testbed run` has no subcommands"]),
        ]
    }
}
