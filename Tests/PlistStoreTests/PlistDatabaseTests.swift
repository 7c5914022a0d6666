import FileSupport
@testable import PlistStore
import Relational
import XCTest

final class PlistDatabaseTests: PlistTestCase {
    func declarations() throws -> [PlistRelationDeclaration] {
        [PlistRelationDeclaration(name: "people", kind: .file, scheme: try peopleScheme(), primaryKey: ["id"]),
         PlistRelationDeclaration(name: "images", kind: .directory, scheme: try Scheme(["id", "image"]), primaryKey: ["id"])]
    }

    /// The seed's example: a file and a directory relation saved together and reopened.
    func testTwoRelationsSavedTogether() throws {
        let root = try scratch() + "/db"
        let db = try PlistDatabase.create(root, try declarations())
        let people = try XCTUnwrap(db["people"]), images = try XCTUnwrap(db["images"])
        try people.insertRows([Row([.integer(1), .text("Lancelot"), .integer(3)]), Row([.integer(2), .text("Galahad"), .null])])
        try images.insertRows([Row([.integer(1), .blob([1, 2, 3])])])
        XCTAssertTrue(db.hasUnsavedChanges)
        try db.saveRelations()
        XCTAssertFalse(db.hasUnsavedChanges)
        let again = try PlistDatabase.open(root)
        XCTAssertEqual(again.declarations, try declarations())
        XCTAssertEqual(try XCTUnwrap(again["people"]).fetchAll().count, 2)
        XCTAssertEqual(try XCTUnwrap(again["images"]).fetchAll(), [Row([.integer(1), .blob([1, 2, 3])])])
        XCTAssertTrue(FileSystem.exists(root + "/people.plist"))
        XCTAssertEqual(rowFiles(root + "/images").count, 1)
    }

    /// A crash while saving the second relation leaves the first saved and the second old.
    func testCrashBetweenRelationsIsAtomicPerRelation() throws {
        let root = try scratch() + "/db"
        let db = try PlistDatabase.create(root, try declarations())
        let images = try XCTUnwrap(db["images"]) as? PlistDirectoryRelation
        try XCTUnwrap(db["people"]).insertRows([Row([.integer(1), .text("a"), .null])])
        try XCTUnwrap(images).insertRows([Row([.integer(1), .blob([9])]), Row([.integer(2), .blob([8])])])
        images?.crashInjection = CrashInjection(afterFileOperations: 1)
        XCTAssertThrowsError(try db.saveRelations())
        let again = try PlistDatabase.open(root)
        XCTAssertEqual(try XCTUnwrap(again["people"]).fetchAll().count, 1)
        XCTAssertEqual(try XCTUnwrap(again["images"]).fetchAll().count, 0)
    }

    /// deleteLocalFile removes the row a row file held, empties a file relation, and
    /// refuses files that are not the database's.
    func testDeleteLocalFile() throws {
        let root = try scratch() + "/db"
        let db = try PlistDatabase.create(root, try declarations())
        try XCTUnwrap(db["people"]).insertRows([Row([.integer(1), .text("a"), .null])])
        try XCTUnwrap(db["images"]).insertRows([Row([.integer(1), .blob([9])]), Row([.integer(2), .blob([8])])])
        try db.saveRelations()
        let file = root + "/images/" + rowFiles(root + "/images")[0]
        let removed = try XCTUnwrap(try db.deleteLocalFile(file))
        XCTAssertEqual(removed.count, 1)
        XCTAssertFalse(FileSystem.exists(file))
        XCTAssertEqual(try XCTUnwrap(db["images"]).fetchAll().count, 1)
        XCTAssertEqual(try PlistDatabase.open(root)["images"]?.fetchAll().count, 1)

        XCTAssertNil(try db.deleteLocalFile(root + "/elsewhere.plist"))
        XCTAssertNil(try db.deleteLocalFile("/tmp/people.plist"))
        XCTAssertNil(try db.deleteLocalFile(root + "/images/zz/not-a-row.rowplist"))

        XCTAssertEqual(try db.deleteLocalFile(root + "/people.plist")?.count, 1)
        XCTAssertEqual(try XCTUnwrap(db["people"]).fetchAll().count, 0)
        XCTAssertFalse(FileSystem.exists(root + "/people.plist"))
    }

    func testOpeningWhatIsNotADatabaseNamesThePath() throws {
        let root = try scratch()
        XCTAssertThrowsError(try PlistDatabase.open(root)) { XCTAssertTrue("\($0)".contains("database.plist"), "\($0)") }
        try FileSystem.writeText("nonsense", to: root + "/database.plist")
        XCTAssertThrowsError(try PlistDatabase.open(root)) { XCTAssertTrue("\($0)".contains(root + "/database.plist"), "\($0)") }
        XCTAssertThrowsError(try PlistDatabase.create(root, try declarations()), "not empty")
    }
    /// Each metadata file holds the keys the testbed writes and nothing else, each once: an
    /// extra key (another tool's file, a typo) or a repeated one is refused, naming the file
    /// and the key, where it was read past before.
    func testMetadataWithAnExtraOrRepeatedKeyIsRefused() throws {
        let root = try scratch() + "/db"
        let db = try PlistDatabase.create(root, try declarations())
        try XCTUnwrap(db["people"]).insertRows([Row([.integer(1), .text("a"), .null])])
        try db.saveRelations()
        func rewrite(_ path: String, _ edit: ([(String, PlistObject)]) -> [(String, PlistObject)]) throws -> () -> Void {
            let original = try PlistFiles.read(path)
            guard case let .dictionary(pairs) = try BinaryPlistReader.decode(original) else {
                XCTFail("\(path) is not a dictionary")
                return {}
            }
            try PlistFiles.write(BinaryPlistWriter.encode(.dictionary(edit(pairs))), to: path)
            return { try? PlistFiles.write(original, to: path) }
        }
        func refusal() -> String {
            do {
                let opened = try PlistDatabase.open(root)
                _ = try opened["images"]?.fetchAll()
                return "opened"
            } catch { return "\(error)" }
        }
        let files = [(root + "/people.plist", "'attributes', 'primaryKey', 'rows'"),
                     (root + "/images/relation.plist", "'attributes', 'primaryKey'")]
        for (path, expected) in files {
            let restore = try rewrite(path) { $0 + [("comment", .string("x"))] }
            XCTAssertTrue(refusal().contains("'\(path)': 'comment' is not a key of this file; expected \(expected)"), refusal())
            restore()
            let restoreTwice = try rewrite(path) { $0 + [$0[0]] }
            XCTAssertTrue(refusal().contains("'\(path)': 'attributes' is given twice"), refusal())
            restoreTwice()
            XCTAssertEqual(refusal(), "opened")
        }
        let manifest = root + "/" + PlistDatabase.manifestName
        let restore = try rewrite(manifest) { $0 + [("version", .integer(2))] }
        XCTAssertTrue(refusal().contains("'version' is not a key of this file; expected 'relations' alone"), refusal())
        restore()
        _ = try rewrite(manifest) { pairs in
            guard case let .array(items) = pairs[0].1, case let .dictionary(first) = items[0] else { return pairs }
            return [("relations", .array([.dictionary(first + [("note", .string("x"))])] + items.dropFirst()))]
        }
        XCTAssertTrue(refusal().contains("'note' is not a key of this file; expected 'attributes', 'primaryKey', 'name', 'kind'"), refusal())
    }
}
