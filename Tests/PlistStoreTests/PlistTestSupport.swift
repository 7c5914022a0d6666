import FileSupport
import PlistStore
import Relational
import XCTest

/// A fresh temporary directory per test, removed afterwards.
class PlistTestCase: XCTestCase {
    private var temporaries: [TemporaryDirectory] = []

    func scratch() throws -> String {
        let t = try TemporaryDirectory(prefix: "plist-test")
        temporaries.append(t)
        return t.path
    }

    override func tearDown() {
        temporaries = []
        super.tearDown()
    }

    static let people = try? Scheme(["id", "name", "score"])

    func peopleScheme() throws -> Scheme { try XCTUnwrap(Self.people) }

    /// Row files under a directory relation (not counting the metadata or a journal).
    func rowFiles(_ directory: String) -> [String] {
        var out: [String] = []
        for prefix in FileSystem.entries(of: directory) ?? [] where prefix.count == 2 {
            for f in FileSystem.entries(of: FileSystem.join(directory, prefix)) ?? [] { out.append(prefix + "/" + f) }
        }
        return out
    }
}
