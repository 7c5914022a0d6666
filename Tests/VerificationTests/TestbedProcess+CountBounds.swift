import Foundation
import XCTest

/// The check shared by the commands whose counts have upper bounds (`hunt`, `verify`): past
/// a bound the command is refused naming the option and the bound, with nothing run or
/// written; at the bounds the options pass, and the command stops at the next check, a
/// TMPDIR that does not exist, so nothing runs.
extension TestbedProcess {
    func assertCountBounds(_ command: String, refused: [(arguments: [String], message: String)], accepted: [[String]],
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let missing = directory.appendingPathComponent("missing").path
        for (arguments, message) in refused {
            let outcome = try run([command] + arguments, environment: ["TMPDIR": missing])
            XCTAssertEqual(outcome.status, 2, "\(arguments): \(outcome.err)", file: file, line: line)
            XCTAssertTrue(outcome.err.hasPrefix(message), "\(arguments): \(outcome.err)", file: file, line: line)
            XCTAssertEqual(outcome.out, "", "\(arguments): nothing ran", file: file, line: line)
            XCTAssertEqual(listing(), [], "nothing written", file: file, line: line)
        }
        for arguments in accepted {
            let outcome = try run([command] + arguments, environment: ["TMPDIR": missing])
            XCTAssertEqual(outcome.status, 2, outcome.err, file: file, line: line)
            XCTAssertTrue(outcome.err.hasPrefix("testbed: TMPDIR is '\(missing)': no such directory"), outcome.err,
                          file: file, line: line)
            XCTAssertEqual(listing(), [], "nothing written", file: file, line: line)
        }
    }
}
