import FileSupport
import QueryEngine
import Relational
import Workloads
import XCTest
@testable import Verification

/// Small tables for handcrafted graphs; each call makes fresh sources.
enum Tables {
    static func make(_ name: String, _ columns: [Attribute], _ rows: [[Value]], indexed: [Attribute] = []) throws -> Relation {
        Relation(source: try MemoryTable(name: name, columns: columns, rows: rows, indexedAttributes: indexed))
    }

    /// people(id, name, boss): two roots with a null boss.
    static func people() throws -> Relation {
        try make("people", ["id", "name", "boss"], [
            [1, "ann", nil], [2, "bob", 1], [3, "cy", 1], [4, "di", 2], [5, "ed", nil], [6, "flo", 4],
        ], indexed: ["id", "boss"])
    }

    static func pets(_ name: String = "pets", _ rows: [[Value]]? = nil) throws -> Relation {
        try make(name, ["id", "name", "animal"], rows ?? [
            [1, "tom", "cat"], [2, "rex", "dog"], [3, "kit", "cat"], [4, "bo", "bird"],
        ], indexed: ["id", "animal"])
    }

    /// keys(k, v) with nulls in the join key k.
    static func keys() throws -> Relation {
        try make("keys", ["k", "v"], [[nil, 1], [1, 2], [2, nil], [3.0, 3], ["3", 4]], indexed: ["k"])
    }

    static func other() throws -> Relation {
        try make("other", ["k", "w"], [[nil, "x"], [1, "y"], [3, "z"], [.blob([1]), "b"]], indexed: ["k"])
    }

    static func empty(_ columns: [Attribute] = ["id", "name", "animal"]) throws -> Relation {
        try make("empty", columns, [], indexed: [columns[0]])
    }
}

/// Checks a case under every flag set of `grid` on both backends and returns the mismatches.
func mismatches(_ graph: CaseGraph, grid: FlagGrid = .tests(), backends: [Backend] = Backend.allCases) throws -> [Mismatch] {
    let checker = try CaseChecker(graph, catalog: grid.catalog)
    var out = checker.oracleMismatches()
    for flags in try grid.flagSets() {
        for backend in backends { out += checker.check(flags: flags, backend: backend) }
    }
    return out
}

extension XCTestCase {
    /// A fresh empty directory under the system's temporary directory, removed when the test ends.
    func temporaryDirectory(_ label: String) throws -> String {
        let path = NSTemporaryDirectory() + "verification-tests-\(getpid())-\(label)"
        FileSystem.removeDirectory(path)
        try FileSystem.makeDirectories(path)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}
