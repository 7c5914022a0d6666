import FileSupport
import QueryEngine
import XCTest
@testable import Verification

/// Repro directories are read strictly: every manifest line is known, a table's CSV stays in
/// the directory, and each refusal names the manifest and its line.
final class ReproManifestTests: XCTestCase {
    private let flags = "initiator-ordering=smallest-estimate,join-filter-threshold=100,select-pushdown=on,"
        + "subtree-copy-limit=100,subtree-copying=on,union-flattening=on"

    private func files(manifest: String) -> [String: String] {
        ["manifest.txt": manifest, "query.rq": query, "t0.csv": "a,d\n3,0\n", "t1.csv": "a,c\n3.0,-1\n"]
    }

    /// Three outputs, a partition of the first (the manifest's `partition: 0 1 2`).
    private var query: String {
        "let q = t0 join t1\noutput q\noutput q select (a == 3)\noutput q select (not (a == 3))\n"
    }

    private var goodManifest: String {
        "flags: \(flags)\nbackend: memory\nkind: reference\nbatch-size: 2\npartition: 0 1 2\n"
            + "table: t0 indexed [a] rows 1\ntable: t1 indexed [] rows 1\n"
    }

    private func error(_ manifest: String) -> String {
        do {
            _ = try ReproDirectory.parse(files: files(manifest: manifest))
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    private func error(line: Int, _ message: String) -> String { "<embedded repro>/manifest.txt:\(line): \(message)" }

    func testTheWrittenFormReadsBack() throws {
        let repro = try ReproDirectory.parse(files: files(manifest: goodManifest))
        XCTAssertEqual(repro.kind, .reference)
        XCTAssertEqual(repro.batchSize, 2)
        XCTAssertEqual(repro.backend, .memory)
        XCTAssertEqual(repro.graph.partition, PartitionOutputs(whole: 0, matching: 1, rest: 2))
        XCTAssertEqual(repro.graph.tables.map(\.name).sorted(), ["t0", "t1"])
        XCTAssertTrue(try ReproDirectory.replay(repro).isEmpty)
    }

    func testCRLFAndBOMFilesReadAlike() throws {
        var crlf = files(manifest: "\u{FEFF}" + goodManifest.replacingOccurrences(of: "\n", with: "\r\n"))
        crlf["query.rq"] = "\u{FEFF}" + query.replacingOccurrences(of: "\n", with: "\r\n")
        crlf["t0.csv"] = "\u{FEFF}a,d\r\n3,0\r\n"
        let repro = try ReproDirectory.parse(files: crlf)
        XCTAssertEqual(repro.kind, .reference)
        XCTAssertEqual(repro.graph.tables.first { $0.name == "t0" }?.scheme.attributes.map(\.name), ["a", "d"])
        XCTAssertTrue(try ReproDirectory.replay(repro).isEmpty)
    }

    func testUnknownLinesKeysAndKindsAreLocatedErrors() {
        XCTAssertEqual(error("flags: \(flags)\nkind: referense\n"),
            error(line: 2, "unknown kind 'referense'; expected one of: reference, sqlite, partition, duplicates, engine-error, oracles, baseline"))
        XCTAssertEqual(error("kind: reference\nbackend: memory\ncolour: blue\n"),
            error(line: 3, "unknown key 'colour'; expected one of: flags, backend, kind, batch-size, partition, mode, declare-keys, table"))
        XCTAssertEqual(error("\n\nthis is not a manifest\n"), error(line: 3, "'this is not a manifest' is not a `key: value` line"))
        XCTAssertEqual(error("kind: reference\nkind: sqlite\n"), error(line: 2, "'kind' given again (first at line 1)"))
        XCTAssertEqual(error("batch-size: 0\n"), error(line: 1, "batch-size '0' is not a positive integer"))
        XCTAssertEqual(error("partition: 0 1\n"), error(line: 1, "partition '0 1' is not three output numbers (WHOLE MATCHING REST)"))
        XCTAssertEqual(error("partition: 0 -1 2\n"), error(line: 1, "partition '0 -1 2' is not three output numbers (WHOLE MATCHING REST)"))
        XCTAssertEqual(error("table: t0 rows 1\n"),
            error(line: 1, "'t0 rows 1': expected `table: NAME indexed [ATTRIBUTES] rows N`"))
        XCTAssertEqual(error("table: t0 indexed [a] rows 1\ntable: t0 indexed [] rows 1\n"),
            error(line: 2, "table 't0' listed again (first at line 1)"))
        XCTAssertEqual(error("kind: \u{1B}[2J\n"), error(line: 1,
            "unknown kind '\\u{1b}[2J'; expected one of: reference, sqlite, partition, duplicates, engine-error, oracles, baseline"))
    }

    /// What the manifest says must fit the files it describes: a partition names outputs
    /// the query has, and a change repro's keys come with its script.
    func testTheManifestMustFitTheQueryAndTheKindOfRepro() {
        XCTAssertEqual(error(goodManifest.replacingOccurrences(of: "partition: 0 1 2", with: "partition: 0 5 2")),
            error(line: 5, "partition names output 5, but query.rq has 3 outputs (numbered from 0)"))
        XCTAssertEqual(error(goodManifest + "mode: incremental\n"),
            error(line: 8, "'mode' belongs to a change repro, but changes.changes is missing"))
        XCTAssertEqual(error(goodManifest + "declare-keys: no\n"),
            error(line: 8, "'declare-keys' belongs to a change repro, but changes.changes is missing"))
    }

    /// A table's CSV is data: a column without a name and a real that is not finite (which
    /// the writer never writes; Double's parser reads `1e999` and `nan`) are refused.
    func testTableValuesAndNamesAreReadStrictly() {
        func csvError(_ t1: String) -> String {
            var all = files(manifest: goodManifest)
            all["t1.csv"] = t1
            do { _ = try ReproDirectory.parse(files: all); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(csvError("a,\n3.0,-1\n"), "<embedded repro>/t1.csv:1: header field 2 is empty; every column needs a name")
        for bad in ["1e999", "nan", "inf", "-infinity"] {
            XCTAssertEqual(csvError("a,c\n3.0,\(bad)\n"),
                           "<embedded repro>/t1.csv:2: '\(bad)' is not a value (null, finite number, \"text\" or x'hex')", bad)
        }
        XCTAssertEqual(csvError("a,c\n3.0,1e300\n"), "no error")
        // Double's parser also reads hex and stops at a NUL: 8.0 and 1 were accepted.
        XCTAssertEqual(csvError("a,c\n3.0,0x1p3\n"),
                       "<embedded repro>/t1.csv:2: '0x1p3' is not a value (null, finite number, \"text\" or x'hex')")
        XCTAssertTrue(csvError("a,c\n3.0,1\u{0}zzz\n").hasPrefix("<embedded repro>/t1.csv:2: '1"), csvError("a,c\n3.0,1\u{0}zzz\n"))
        XCTAssertTrue(csvError("a,c\n3.0,1\u{0}zzz\n").hasSuffix("is not a value (null, finite number, \"text\" or x'hex')"))
        // `"ab"c` was read as "abc".
        XCTAssertEqual(csvError("a,c\n3.0,\"ab\"c\n"),
                       "<embedded repro>/t1.csv:2: text after a quoted field's closing quote; a quote inside a field is written \"\"")
        XCTAssertEqual(csvError("a,c\n3.0,\"a\"\"b\"\r\n"), "no error")
        // Two integers past 64 bits were read as one real (1e20), and a repeated row passed
        // the manifest's row count, loading one row fewer.
        XCTAssertEqual(csvError("a,c\n99999999999999999999,5\n"),
                       "<embedded repro>/t1.csv:2: integer '99999999999999999999' does not fit in 64 bits")
        XCTAssertEqual(csvError("a,c\n-99999999999999999999,5\n"),
                       "<embedded repro>/t1.csv:2: integer '-99999999999999999999' does not fit in 64 bits")
        var twice = files(manifest: goodManifest.replacingOccurrences(of: "t1 indexed [] rows 1", with: "t1 indexed [] rows 2"))
        twice["t1.csv"] = "a,c\n3,-1\n3.0,-1\n"
        XCTAssertThrowsError(try ReproDirectory.parse(files: twice)) {
            XCTAssertEqual("\($0)", "<embedded repro>/t1.csv: data rows 1 and 2 are the same row; a table holds each row once")
        }
    }

    func testAnAttributeIndexedTwiceIsRefused() {
        XCTAssertEqual(error("flags: \(flags)\nbackend: memory\nkind: reference\nbatch-size: 2\npartition: 0 1 2\n"
                             + "table: t0 indexed [a, a] rows 1\ntable: t1 indexed [] rows 1\n"),
                       error(line: 6, "'t0 indexed [a, a] rows 1': 'a' is indexed twice"))
    }

    func testTableNamesCannotLeaveTheReproDirectory() {
        for name in ["../t0", "/etc/passwd", "sub/t0", "..", "a..b"] {
            let problem = name.contains("/") ? "contains '/'" : "contains '..'"
            XCTAssertEqual(error("table: \(name) indexed [] rows 1\n"),
                error(line: 1, "table name '\(name)' \(problem); a table's CSV must be in the repro directory"), name)
        }
        XCTAssertEqual(ReproManifest.tableNameProblem("t\u{0}"), "contains a control character")
        XCTAssertNil(ReproManifest.tableNameProblem("documents"))
    }

    func testAPathOutsideIsNeverRead() throws {
        // A real directory beside a secret: the manifest naming ../secret is refused before any read.
        let parent = try temporaryDirectory("repro-confinement")
        defer { FileSystem.removeDirectory(parent + "/repro"); FileSystem.removeDirectory(parent) }
        try FileSystem.writeText("a\n1\n", to: parent + "/secret.csv")
        try FileSystem.makeDirectories(parent + "/repro")
        try FileSystem.writeText("table: ../secret indexed [] rows 1\n", to: parent + "/repro/manifest.txt")
        try FileSystem.writeText("output secret\n", to: parent + "/repro/query.rq")
        XCTAssertThrowsError(try ReproDirectory.read(parent + "/repro")) { error in
            XCTAssertEqual("\(error)", "\(parent)/repro/manifest.txt:1: table name '../secret' contains '/'; "
                + "a table's CSV must be in the repro directory")
        }
    }

    func testRowCountsAndIndexesMustMatchTheCSV() {
        XCTAssertEqual(error("table: t0 indexed [] rows 2\ntable: t1 indexed [] rows 1\n"),
            error(line: 1, "table 't0' says rows 2, but <embedded repro>/t0.csv has 1"))
        XCTAssertTrue(error("table: t0 indexed [zz] rows 1\ntable: t1 indexed [] rows 1\n")
            .hasPrefix(error(line: 1, "<embedded repro>/t0.csv: ")))
    }

    func testBackendAndFlagsErrorsNameTheirLine() {
        XCTAssertEqual(error("kind: reference\n\nbackend: postgres\n"), error(line: 3, "backend 'postgres' is not one of memory | sqlite | plist-file | plist-directory | plist-database"))
        XCTAssertTrue(error("kind: reference\nflags: warp=on\n").hasPrefix("<embedded repro>/manifest.txt:2: flags: "))
    }

    func testAnEmptyManifestIsRefusedAtItsFirstLine() {
        XCTAssertTrue(error("").hasPrefix("<embedded repro>/manifest.txt:1: the manifest is empty"), error(""))
        XCTAssertTrue(error("\n \n").hasPrefix("<embedded repro>/manifest.txt:1: the manifest is empty"))
    }

    func testCSVErrorsNameTheLineTheRecordStartsOn() {
        func csvError(_ t1: String, rows: Int) -> String {
            var all = files(manifest: goodManifest.replacingOccurrences(of: "t1 indexed [] rows 1", with: "t1 indexed [] rows \(rows)"))
            all["t1.csv"] = t1
            do { _ = try ReproDirectory.parse(files: all); return "no error" } catch { return "\(error)" }
        }
        // A quoted field spanning two lines: the record after it starts on line 4.
        XCTAssertEqual(csvError("a,c\n\"x\ny\",1\n2\n", rows: 2), "<embedded repro>/t1.csv:4: 1 fields, the header has 2")
        XCTAssertEqual(csvError("a,c\n1,2\n3,zz\n", rows: 2), "<embedded repro>/t1.csv:3: 'zz' is not a value (null, finite number, \"text\" or x'hex')")
        XCTAssertEqual(csvError("a,c\n1,2\n3,\"open\n", rows: 2), "<embedded repro>/t1.csv:3: unterminated quoted field (its quote opens here)")
        XCTAssertEqual(csvError("", rows: 0), "<embedded repro>/t1.csv:1: empty CSV (no header line)")
    }
}
