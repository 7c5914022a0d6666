// swift-tools-version: 6.0
import PackageDescription

/// Release settings of the test targets: see the comment above FileSupportTests.
let unoptimisedTests: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "QueryTestbed",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "testbed", targets: ["testbed"]),
        .library(name: "FileSupport", targets: ["FileSupport"]),
        .library(name: "Relational", targets: ["Relational"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "PlistStore", targets: ["PlistStore"]),
        .library(name: "PostgresClient", targets: ["PostgresClient"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "QueryEngine", targets: ["QueryEngine"]),
        .library(name: "Workloads", targets: ["Workloads"]),
        .library(name: "Engines", targets: ["Engines"]),
        .library(name: "Verification", targets: ["Verification"]),
        .library(name: "Experiments", targets: ["Experiments"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // SHA-256 for the property-list directory's row file names.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CGraphviz", path: "Sources/CGraphviz"),
        // libpq (apt: libpq-dev), the PostgreSQL client library: see README, "PostgreSQL".
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ"),
        // libm: Double.rounded() needs it when no Foundation is linked (e.g. the benchmarks).
        // File-system helpers on the C library, shared by every module that touches files.
        .target(name: "FileSupport"),
        .target(name: "Relational", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "SQLiteStore", dependencies: ["Relational", "CSQLite", "FileSupport"]),
        .target(name: "PlistStore", dependencies: [
            "Relational", "FileSupport", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // Release builds skip the runtime exclusivity checks on the runner's class state
        // (about 8% of a small query's instructions under callgrind; README "Per-run fixed
        // cost"); debug builds keep them, and so does scripts/test.sh's optimised test
        // build, which passes -enforce-exclusivity=checked after this flag.
        .target(
            name: "QueryEngine", dependencies: ["Relational", "CGraphviz", "FileSupport"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .target(name: "PostgresClient", dependencies: ["Relational", "CLibPQ", "FileSupport"]),
        .target(name: "PostgresStore", dependencies: ["Relational", "PostgresClient"]),
        .target(name: "Workloads", dependencies: ["Relational", "SQLiteStore", "PlistStore", "QueryEngine", "FileSupport"]),
        // Baseline engines (SQLite, DuckDB, …) behind one protocol and registry, and the SQL dialects.
        .target(name: "Engines", dependencies: ["Relational", "SQLiteStore", "PostgresClient", "PostgresStore", "Workloads", "FileSupport"]),
        .target(name: "Verification", dependencies: ["Relational", "SQLiteStore", "PlistStore", "QueryEngine", "Workloads", "Engines", "FileSupport"]),
        .target(name: "Experiments", dependencies: [
            "Relational", "SQLiteStore", "QueryEngine", "Workloads", "Engines", "FileSupport",
            .product(name: "Yams", package: "Yams"),
        ]),
        .executableTarget(name: "testbed", dependencies: [
            "Relational", "SQLiteStore", "PlistStore", "QueryEngine", "Workloads", "Verification", "Experiments", "Engines", "FileSupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "testbed-bench", dependencies: [
            "Relational", "SQLiteStore", "PlistStore", "QueryEngine", "Workloads", "Engines",
        ], path: "Sources/Benchmarks"),
        // Fuzz entry points (scripts/fuzz.sh builds them with -sanitize=fuzzer -D FUZZING into
        // .build-fuzz); a normal build makes them reproducers that run files given as arguments.
        .executableTarget(name: "FuzzQueryParser", dependencies: ["Workloads", "FileSupport"],
                          path: "Fuzz/FuzzQueryParser"),
        .executableTarget(name: "FuzzConfigLoader", dependencies: ["Experiments", "FileSupport"],
                          path: "Fuzz/FuzzConfigLoader"),
        // Test targets stay unoptimised in the optimised test build (scripts/test.sh): their
        // code is not where the suite's time goes, and optimising it cost minutes of the build.
        .testTarget(name: "FileSupportTests", dependencies: ["FileSupport"], swiftSettings: unoptimisedTests),
        .testTarget(name: "RelationalTests", dependencies: ["Relational"], swiftSettings: unoptimisedTests),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["Relational", "SQLiteStore"], swiftSettings: unoptimisedTests),
        .testTarget(name: "PlistStoreTests", dependencies: [
            "Relational", "PlistStore", "FileSupport", "QueryEngine", "Workloads", "Verification",
        ], swiftSettings: unoptimisedTests),
        .testTarget(name: "PostgresClientTests", dependencies: ["PostgresClient", "Relational"], swiftSettings: unoptimisedTests),
        .testTarget(name: "PostgresStoreTests", dependencies: [
            "PostgresStore", "PostgresClient", "Relational", "Workloads", "Verification", "QueryEngine",
        ], swiftSettings: unoptimisedTests),
        .testTarget(name: "QueryEngineTests", dependencies: ["Relational", "QueryEngine", "SQLiteStore"], swiftSettings: unoptimisedTests),
        .testTarget(name: "VerificationTests", dependencies: [
            "Relational", "SQLiteStore", "QueryEngine", "Workloads", "Verification", "Engines", "FileSupport",
        ], swiftSettings: unoptimisedTests),
        .testTarget(name: "ExperimentsTests", dependencies: [
            "Relational", "SQLiteStore", "QueryEngine", "Workloads", "Experiments", "Engines", "FileSupport",
        ], swiftSettings: unoptimisedTests),
        // The malformed-input battery: runs the built `testbed` executable (no module imports).
        .testTarget(name: "CommandLineTests", exclude: ["Fixtures"], swiftSettings: unoptimisedTests),
        // scripts/sweep.sh on real schedulers: GNU parallel (locally and over ssh to test hosts)
        // and a one-node Slurm cluster; runs the built `testbed` and the scripts (no module imports).
        .testTarget(name: "SweepTests", exclude: ["Fixtures"], swiftSettings: unoptimisedTests),
        .testTarget(name: "EnginesTests", dependencies: [
            "Relational", "SQLiteStore", "QueryEngine", "Workloads", "Engines", "Verification", "FileSupport",
        ], swiftSettings: unoptimisedTests),
        .testTarget(name: "WorkloadsTests", dependencies: ["Relational", "QueryEngine", "Workloads", "SQLiteStore", "FileSupport", "Experiments"], swiftSettings: unoptimisedTests),
    ],
    swiftLanguageModes: [.v6]
)
