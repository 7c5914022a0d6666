import QueryEngine
import XCTest
@testable import Verification

/// A regression test is a reduced repro directory embedded as text (the files the fuzzer
/// wrote under Results/repro/<id>/): it must replay with no mismatch on the engine as it is.
func assertReplaysClean(
    _ files: [String: String], catalog: HeuristicCatalog = .standard, file: StaticString = #filePath, line: UInt = #line
) throws {
    let repro = try ReproDirectory.parse(files: files, catalog: catalog)
    let found = try ReproDirectory.replay(repro, catalog: catalog)
    XCTAssertTrue(found.isEmpty, found.first.map(String.init(describing:)) ?? "", file: file, line: line)
}
