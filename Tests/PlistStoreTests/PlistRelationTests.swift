import FileSupport
@testable import PlistStore
import Relational
import XCTest

final class PlistRelationTests: PlistTestCase {
    func rows() -> [Row] {
        [Row([.integer(1), .text("Lancelot"), .integer(3)]), Row([.integer(2), .text(""), .real(3.0)]),
         Row([.integer(3), .text("3"), .null]), Row([.real(4.5), .text("null"), .blob([0, 255])])]
    }

    /// Every value class survives a save and a reopen, in both kinds of relation.
    func testFileAndDirectoryRelationsRoundTripRows() throws {
        let dir = try scratch()
        let scheme = try peopleScheme()
        let file = try PlistFileRelation(path: dir + "/people.plist", name: "people", scheme: scheme, primaryKey: ["id"], create: true)
        let directory = try PlistDirectoryRelation(path: dir + "/people", name: "people", scheme: scheme, primaryKey: ["id"], create: true)
        for r in [file, directory] as [any PlistRelation] {
            try r.insertRows(rows())
            XCTAssertTrue(r.hasUnsavedChanges)
            try r.save()
            XCTAssertFalse(r.hasUnsavedChanges)
        }
        let reopened: [any PlistRelation] = [
            try PlistFileRelation(path: dir + "/people.plist", name: "people"),
            try PlistDirectoryRelation(path: dir + "/people", name: "people"),
        ]
        for r in reopened {
            let back = try r.fetchAll()
            XCTAssertEqual(Set(back), Set(rows()))
            // Classes, not just values: 3.0 is still a real, "3" still text.
            for row in back {
                let original = try XCTUnwrap(rows().first { $0 == row })
                XCTAssertEqual(row.values.map(\.typeName), original.values.map(\.typeName))
            }
        }
        XCTAssertEqual(rowFiles(dir + "/people").count, 4)
    }

    /// A key filter opens one file; any other filter opens every file; estimates agree.
    func testSelectiveFetchByKeyOpensOneFile() throws {
        let dir = try scratch()
        let scheme = try peopleScheme()
        let r = try PlistDirectoryRelation(path: dir + "/p", name: "p", scheme: scheme, primaryKey: ["id"], create: true)
        try r.insertRows((0..<50).map { Row([.integer(Int64($0)), .text("n\($0)"), .integer(Int64($0 % 7))]) })
        try r.save()
        let reopened = try PlistDirectoryRelation(path: dir + "/p", name: "p")
        XCTAssertEqual(reopened.filesOpened, 0, "opening lists files, reads none")

        let byKey: Relational.Predicate = Attribute("id") *== .real(17.0)
        XCTAssertTrue(reopened.canFetchSelectively(byKey))
        XCTAssertEqual(reopened.estimatedCount(filter: byKey), 1)
        XCTAssertEqual(try reopened.fetchAll(filter: byKey), [Row([.integer(17), .text("n17"), .integer(3)])])
        XCTAssertEqual(reopened.filesOpened, 1)

        reopened.resetStatistics()
        let twoKeys: Relational.Predicate = .any([Attribute("id") *== 3, Attribute("id") *== 99, Attribute("id") *== 4])
        XCTAssertEqual(reopened.estimatedCount(filter: twoKeys), 3)
        XCTAssertEqual(Set(try reopened.fetchAll(filter: twoKeys).map { $0[0] }), [.integer(3), .integer(4)])
        XCTAssertEqual(reopened.filesOpened, 2, "a key with no file opens nothing")

        reopened.resetStatistics()
        let other: Relational.Predicate = Attribute("score") *== 3
        XCTAssertFalse(reopened.canFetchSelectively(other))
        XCTAssertEqual(reopened.estimatedCount(filter: other), 50)
        XCTAssertEqual(try reopened.fetchAll(filter: other).count, 7)
        XCTAssertEqual(reopened.filesOpened, 50)
    }

    /// Buffered changes are visible before the save, and only the save touches disk.
    func testChangesAreBufferedUntilSave() throws {
        let dir = try scratch()
        let r = try PlistDirectoryRelation(path: dir + "/p", name: "p", scheme: try peopleScheme(), primaryKey: ["id"], create: true)
        try r.insertRows(rows())
        try r.save()
        try r.removeRows([rows()[0]])
        try r.insertRows([Row([.integer(1), .text("Galahad"), .integer(9)])])
        XCTAssertEqual(r.count, 4)
        XCTAssertEqual(try r.fetchAll(filter: Attribute("id") *== 1), [Row([.integer(1), .text("Galahad"), .integer(9)])])
        XCTAssertEqual(try PlistDirectoryRelation(path: dir + "/p", name: "p").fetchAll(filter: Attribute("id") *== 1), [rows()[0]])
        try r.save()
        XCTAssertEqual(try PlistDirectoryRelation(path: dir + "/p", name: "p").fetchAll(filter: Attribute("id") *== 1),
                       [Row([.integer(1), .text("Galahad"), .integer(9)])])
        XCTAssertEqual(rowFiles(dir + "/p").count, 4)
    }

    /// One row per key value: a second row with a taken key is refused, nothing buffered.
    func testKeyClashIsRefusedWhole() throws {
        let dir = try scratch()
        let r = try PlistDirectoryRelation(path: dir + "/p", name: "p", scheme: try peopleScheme(), primaryKey: ["id"], create: true)
        try r.insertRows(rows())
        XCTAssertThrowsError(try r.insertRows([Row([.integer(9), .text("a"), .null]), Row([.real(2.0), .text("b"), .null])]))
        XCTAssertEqual(r.count, 4)
        XCTAssertEqual(try r.fetchAll(filter: Attribute("id") *== 9), [])
    }

    /// A crash at every point of a save leaves the relation, once opened again, all old or
    /// all new: before the commit point all old, after it all new.
    func testSaveIsAtomicAcrossASimulatedCrashBetweenFiles() throws {
        let scheme = try peopleScheme()
        let old = rows()
        let changedRows = [Row([.integer(1), .text("changed"), .integer(0)])] + (10..<14).map { Row([.integer(Int64($0)), .text("new"), .null]) }
        var sawOld = false, sawNew = false
        for crashAfter in 0..<30 {
            let dir = try scratch() + "/p"
            let r = try PlistDirectoryRelation(path: dir, name: "p", scheme: scheme, primaryKey: ["id"], create: true)
            try r.insertRows(old)
            try r.save()
            try r.removeRows([old[0], old[2]])
            try r.insertRows(changedRows)
            let expectedNew = Set(old).subtracting([old[0], old[2]]).union(changedRows)
            r.crashInjection = CrashInjection(afterFileOperations: crashAfter)
            var crashed = false
            do { try r.save() } catch is SimulatedCrash { crashed = true }
            let after = Set(try PlistDirectoryRelation(path: dir, name: "p").fetchAll())
            XCTAssertTrue(after == Set(old) || after == expectedNew, "crash after \(crashAfter) operations left a mix: \(after)")
            if after == Set(old) { sawOld = true } else { sawNew = true }
            XCTAssertFalse(FileSystem.exists(dir + "/.journal"), "opening finishes or discards the journal")
            if !crashed { XCTAssertEqual(after, expectedNew); break }
        }
        XCTAssertTrue(sawOld && sawNew, "crashes fell both before and after the commit point")
    }

    /// A committed journal one of whose staged files is damaged is refused before anything
    /// moves: the rows staged before it in the list are not replayed over the good ones.
    func testACommittedJournalWithADamagedStagedFileReplacesNothing() throws {
        let dir = try scratch() + "/p"
        let r = try PlistDirectoryRelation(path: dir, name: "p", scheme: try peopleScheme(), primaryKey: ["id"], create: true)
        try r.insertRows(rows())
        try r.save()
        let before = Set(try PlistDirectoryRelation(path: dir, name: "p").fetchAll())
        try r.removeRows([rows()[0]])
        try r.insertRows([Row([.integer(1), .text("changed"), .integer(0)]), Row([.integer(20), .text("new"), .null]),
                          Row([.integer(21), .text("newer"), .null])])
        // Three staged files and the commit list written; the crash comes before the first move.
        r.crashInjection = CrashInjection(afterFileOperations: 4)
        XCTAssertThrowsError(try r.save()) { XCTAssert($0 is SimulatedCrash, "\($0)") }
        let journal = dir + "/.journal"
        let list = try FileSystem.readText(journal + "/commit").split(separator: "\n")
        XCTAssertEqual(list.filter { $0.hasPrefix("w ") }.count, 3, "\(list)")
        guard let last = list.last(where: { $0.hasPrefix("w ") }) else { return XCTFail("no write in \(list)") }
        try FileSystem.writeText("not a property list", to: journal + "/" + last.dropFirst(2) + ".rowplist")

        XCTAssertThrowsError(try PlistDirectoryRelation(path: dir, name: "p")) { error in
            XCTAssert("\(error)".contains("cannot be finished") && "\(error)".contains("nothing was replayed"), "\(error)")
        }
        FileSystem.removeTree(journal)
        XCTAssertEqual(Set(try PlistDirectoryRelation(path: dir, name: "p").fetchAll()), before, "a staged row replaced a saved one")
    }

    /// A directory relation holds its metadata, its journal and two-digit shard directories of
    /// row files, nothing else: a misnamed shard (`BB`), a row file at the top, or a file where
    /// a shard belongs held rows that silently went missing. A shard or relation directory
    /// that is a symbolic link is refused: a journal replayed through it deleted files outside
    /// the database. A pipe where a file belongs is refused, where reading it waited for ever.
    func testAnythingButTheRelationsOwnFilesIsRefused() throws {
        func relation() throws -> String {
            let dir = try scratch() + "/p"
            let r = try PlistDirectoryRelation(path: dir, name: "p", scheme: try peopleScheme(), primaryKey: ["id"], create: true)
            try r.insertRows(rows())
            try r.save()
            return dir
        }
        func openError(_ dir: String) -> String {
            do { _ = try PlistDirectoryRelation(path: dir, name: "p").fetchAll(); return "no error" } catch { return "\(error)" }
        }
        var dir = try relation()
        let shard = try XCTUnwrap(FileSystem.entries(of: dir)?.first { PlistDirectoryRelation.isShardName($0) })
        XCTAssertEqual(rename(dir + "/" + shard, dir + "/zz"), 0)
        XCTAssertTrue(openError(dir).contains("/zz': is not part of a directory relation"), openError(dir))
        dir = try relation()
        try FileSystem.writeText("x", to: dir + "/notes.txt")
        XCTAssertTrue(openError(dir).contains("notes.txt': is not part of a directory relation"), openError(dir))
        dir = try relation()
        let first = try XCTUnwrap(FileSystem.entries(of: dir)?.first { PlistDirectoryRelation.isShardName($0) })
        try FileSystem.writeText("x", to: dir + "/" + first + "/stray.txt")
        XCTAssertTrue(openError(dir).contains("stray.txt': is not a row file"), openError(dir))

        dir = try relation()
        let elsewhere = try scratch() + "/elsewhere"
        XCTAssertEqual(rename(dir + "/" + first, elsewhere), 0)
        XCTAssertEqual(symlink(elsewhere, dir + "/" + first), 0)
        XCTAssertTrue(openError(dir).contains("is a symbolic link, not a shard directory"), openError(dir))
        let linked = try scratch() + "/linked"
        XCTAssertEqual(symlink(try relation(), linked), 0)
        XCTAssertTrue(openError(linked).contains("is a symbolic link, not a relation directory"), openError(linked))

        dir = try relation()
        FileSystem.remove(dir + "/relation.plist")
        XCTAssertEqual(mkfifo(dir + "/relation.plist", 0o644), 0)
        XCTAssertTrue(openError(dir).contains("relation.plist': is not a plain file"), openError(dir))
    }

    /// A journal that is a symbolic link to another directory is refused, and nothing in
    /// that directory is touched (the malformed-input battery of the twenty-ninth session:
    /// opening such a database deleted every file of the linked directory).
    func testAJournalThatIsASymbolicLinkIsRefusedAndItsTargetKept() throws {
        let root = try scratch()
        let dir = root + "/p"
        let r = try PlistDirectoryRelation(path: dir, name: "p", scheme: try peopleScheme(), primaryKey: ["id"], create: true)
        try r.insertRows(rows())
        try r.save()
        let victim = root + "/victim"
        try FileSystem.makeDirectory(victim)
        try FileSystem.writeText("keep", to: victim + "/important.txt")
        XCTAssertEqual(symlink(victim, dir + "/.journal"), 0)
        XCTAssertThrowsError(try PlistDirectoryRelation(path: dir, name: "p")) { error in
            XCTAssert("\(error)".contains("symbolic link"), "\(error)")
        }
        XCTAssertTrue(FileSystem.exists(victim + "/important.txt"), "the linked directory's file was deleted")
    }

    func testFileRelationSaveReplacesTheFileWhole() throws {
        let dir = try scratch()
        let r = try PlistFileRelation(path: dir + "/f.plist", name: "f", scheme: try peopleScheme(), primaryKey: ["id"], create: true)
        try r.insertRows(rows())
        try r.save()
        try r.removeRows([rows()[1]])
        XCTAssertEqual(try PlistFileRelation(path: dir + "/f.plist", name: "f").fetchAll().count, 4, "unsaved")
        try r.save()
        XCTAssertEqual(Set(try PlistFileRelation(path: dir + "/f.plist", name: "f").fetchAll()), Set(rows()).subtracting([rows()[1]]))
        XCTAssertEqual(FileSystem.entries(of: dir), ["f.plist"], "no temporary left behind")
    }

    /// Damaged files are errors naming the file.
    func testBadFilesNameThemselves() throws {
        let dir = try scratch()
        let r = try PlistDirectoryRelation(path: dir + "/p", name: "p", scheme: try peopleScheme(), primaryKey: ["id"], create: true)
        try r.insertRows(rows())
        try r.save()
        let victim = dir + "/p/" + rowFiles(dir + "/p")[0]
        try FileSystem.writeText("garbage", to: victim)
        let reopened = try PlistDirectoryRelation(path: dir + "/p", name: "p")
        XCTAssertThrowsError(try reopened.fetchAll()) { error in
            XCTAssertTrue("\(error)".contains(victim), "\(error)")
        }
        // A valid row file under another key's name.
        let other = dir + "/p/" + rowFiles(dir + "/p")[1]
        try FileSystem.writeText("", to: victim)
        FileSystem.remove(victim)
        let moved = try PlistFiles.read(other)
        try PlistFiles.write(moved, to: victim)
        XCTAssertThrowsError(try PlistDirectoryRelation(path: dir + "/p", name: "p").fetchAll()) { error in
            XCTAssertTrue("\(error)".contains("does not hash"), "\(error)")
        }
        try FileSystem.writeText("bplist00", to: dir + "/f.plist")
        XCTAssertThrowsError(try PlistFileRelation(path: dir + "/f.plist", name: "f")) { error in
            XCTAssertTrue("\(error)".contains(dir + "/f.plist"), "\(error)")
        }
    }

    /// A file relation holding two rows with one key (edited from outside) is refused when
    /// opened, naming the file, both rows and the key; a row given twice is refused too.
    func testAFileWithARepeatedKeyIsRefusedAtOpen() throws {
        let dir = try scratch()
        let scheme = try peopleScheme()
        let path = dir + "/f.plist"
        let clash = rows() + [Row([.integer(1), .text("CLASH"), .null])]
        try PlistFiles.write(PlistFileRelation.encode(scheme: scheme, primaryKey: ["id"], rows: clash), to: path)
        let message = "'\(path)': row 4 has the primary key (id = 1) of row 0"
        XCTAssertThrowsError(try PlistFileRelation(path: path, name: "f")) { error in
            XCTAssertTrue(error is PlistError && "\(error)".hasPrefix(message), "\(error)")
        }
        XCTAssertThrowsError(try PlistFileRelation(path: path, name: "f", scheme: scheme, primaryKey: ["id"], create: false)) { error in
            XCTAssertTrue("\(error)".hasPrefix(message), "\(error)")
        }
        let twice = rows() + [rows()[2]]
        try PlistFiles.write(PlistFileRelation.encode(scheme: scheme, primaryKey: [], rows: twice), to: path)
        XCTAssertThrowsError(try PlistFileRelation(path: path, name: "f")) { error in
            XCTAssertTrue("\(error)".hasPrefix("'\(path)': row 4 has the primary key (id = 3, name = 3, score = null) of row 2"),
                          "\(error)")
        }
        // Distinct keys open as before.
        try PlistFiles.write(PlistFileRelation.encode(scheme: scheme, primaryKey: ["id"], rows: rows()), to: path)
        XCTAssertEqual(try PlistFileRelation(path: path, name: "f").count, 4)
    }
}
