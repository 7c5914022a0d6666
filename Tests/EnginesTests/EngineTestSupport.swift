#if canImport(Glibc)
import Glibc
#endif
import Engines
import Relational
import Workloads
import XCTest

/// Skips a test that needs DuckDB when it is not installed, saying why, unless
/// `TESTBED_REQUIRE_ENGINES=1` (scripts/test.sh, so CI never skips): then it fails.
func requireDuckDB() throws {
    guard let why = DuckDBEngine.kind.missing() else { return }
    if let require = getenv("TESTBED_REQUIRE_ENGINES"), String(cString: require) == "1" {
        XCTFail("DuckDB is required (TESTBED_REQUIRE_ENGINES=1) but \(why)")
        throw XCTSkip("failed above")
    }
    print("skipping: DuckDB is not available: \(why)")
    throw XCTSkip("DuckDB is not available: \(why)")
}

func startDuckDB(_ settings: [(name: String, value: String)] = []) throws -> any BaselineEngine {
    try EngineSpec(label: "duckdb", kind: DuckDBEngine.kind, settings: EngineSettings(settings)).start()
}

/// The rows once each, and whether any came twice.
func asSet(_ rows: [Row]) -> (Set<Row>, duplicates: Bool) {
    let set = Set(rows)
    return (set, set.count != rows.count)
}

/// Whether a process with this id exists (a reaped child does not).
func processExists(_ pid: Int32) -> Bool { kill(pid, 0) == 0 }

/// Runs `body` with environment variable `name` set to `value`, then restores it.
func withEnvironment<T>(_ name: String, _ value: String, _ body: () throws -> T) rethrows -> T {
    let old = getenv(name).map { String(cString: $0) }
    setenv(name, value, 1)
    defer { if let old { setenv(name, old, 1) } else { unsetenv(name) } }
    return try body()
}
