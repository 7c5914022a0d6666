/// What a verification run did: comparisons made, how many disagreed, and the reduced
/// repros of the first few distinct disagreements.
public struct VerificationReport {
    /// Cases checked (random cases, or query × dataset pairs).
    public var cases = 0
    /// Engine runs (one per case × flag set × backend).
    public var engineRuns = 0
    /// Output-versus-oracle comparisons (reference, SQLite, partition; oracles with each other).
    public var comparisons = 0
    /// Comparisons that disagreed.
    public var mismatches = 0
    /// Disagreements by the oracle that found them (`Mismatch.Kind`).
    public var mismatchesByKind: [Mismatch.Kind: Int] = [:]
    /// Cases that could not be checked (e.g. the reference evaluator threw).
    public var skipped = 0
    /// Random cases too large to check (`Fuzzer.maxWork`): counted, not a failure.
    public var tooLarge = 0
    /// The first disagreement of each failing case (up to a limit), before reduction.
    public var firstMismatches: [Mismatch] = []
    /// Reduced cases, with where they were written (nil when not written).
    public var reduced: [(FailingCase, path: String?)] = []

    /// Per baseline engine (`--engines`): cases it ran, and cases it refused (it cannot hold them).
    public var baselineRuns: [String: Int] = [:]
    public var baselineRefused: [String: Int] = [:]

    public init() {}

    mutating func countBaselines(_ checker: CaseChecker) {
        for (label, outcome) in checker.baselines {
            if case .unsupported = outcome { baselineRefused[label, default: 0] += 1 } else { baselineRuns[label, default: 0] += 1 }
            if case let .rows(results) = outcome { comparisons += results.count }
        }
    }

    /// `duckdb ran 980 cases, refused 20` per baseline engine (empty without any).
    public var baselineSummary: String {
        Set(baselineRuns.keys).union(baselineRefused.keys).sorted().map { label in
            "\(label) ran \(baselineRuns[label] ?? 0) cases"
                + ((baselineRefused[label] ?? 0) > 0 ? ", refused \(baselineRefused[label] ?? 0) (see --engines in README)" : "")
        }.joined(separator: "; ")
    }

    public var passed: Bool { mismatches == 0 && skipped == 0 }

    /// Counts disagreements, each under its oracle.
    mutating func count(_ found: [Mismatch]) {
        mismatches += found.count
        for m in found { mismatchesByKind[m.kind, default: 0] += 1 }
    }

    /// `reference 3, sqlite 2` in `Mismatch.Kind` order (empty when nothing differed).
    public var byKind: String {
        Mismatch.Kind.allCases.compactMap { kind in mismatchesByKind[kind].map { "\(kind.rawValue) \($0)" } }
            .joined(separator: ", ")
    }

    public var summary: String {
        "\(cases) cases, \(engineRuns) engine runs, \(comparisons) comparisons, \(mismatches) differed"
            + (mismatches > 0 ? " (\(byKind))" : "")
            + (skipped > 0 ? ", \(skipped) skipped" : "")
            + (tooLarge > 0 ? ", \(tooLarge) too large to check (the work bound)" : "")
            + (baselineSummary.isEmpty ? "" : "; " + baselineSummary)
    }
}

/// A progress line for long runs (done so far, total, mismatches so far).
public struct VerificationProgress: Sendable {
    public let done: Int
    public let total: Int
    public let mismatches: Int
}
