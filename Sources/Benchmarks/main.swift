// testbed-bench: release-build benchmarks, one suite per file.
//
//   swift run -c release testbed-bench               lists the suites
//   swift run -c release testbed-bench <suite> ...   runs one suite (arguments go to it)
//   swift run -c release testbed-bench all           runs every suite not marked "not in all"
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let suites: [BenchmarkSuite] = [
    foundationSuite,
    engineSuite,
    workloadsSuite,
    growthSuite,
    bulkSuite,
    memorySuite,
    profileSuite,
    closureSuite,
    changesSuite,
    changeProfileSuite,
    orderedViewSuite,
    plistSuite,
    baselinesSuite,
]

func usage() -> String {
    let width = suites.map(\.name.count).max() ?? 0
    var text = """
        USAGE: testbed-bench <suite> [arguments]
               testbed-bench all            (every suite not marked "not in all")

        Build with -c release for meaningful figures:
          swift run -c release testbed-bench <suite>

        SUITES:

        """
    for suite in suites {
        text += "  " + suite.name + String(repeating: " ", count: width - suite.name.count) + "  " + suite.summary
            + (suite.includedInAll ? "" : " (not in all)") + "\n"
    }
    return text
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first, !["-h", "--help", "help"].contains(first) else {
    print(usage(), terminator: "")
    exit(arguments.isEmpty ? 2 : 0)
}

let selected: [BenchmarkSuite]
if first == "all" {
    selected = suites.filter(\.includedInAll)
} else if let suite = suites.first(where: { $0.name == first }) {
    selected = [suite]
} else {
    printError("testbed-bench: unknown suite '\(first)'")
    printError(usage())
    exit(2)
}

#if DEBUG
printError("warning: this is a debug build; run with `swift run -c release testbed-bench` for real figures")
#endif

do {
    for suite in selected { try suite.run(Array(arguments.dropFirst())) }
} catch let error as BenchmarkError {
    printError("testbed-bench: \(error)")
    exit(2)
} catch {
    printError("testbed-bench: \(error)")
    exit(1)
}
