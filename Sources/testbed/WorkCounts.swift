import ArgumentParser

/// Upper bounds of the counts that say how much `hunt` and `verify` run. Unbounded, a count
/// with a few zeros too many ran for days (memory stays bounded, so nothing else stopped
/// it). Each bound is far above the largest count used in this repository: hunts of 2,000
/// queries, `verify --random 300000` (five and a half minutes), 3 orders and 3 runs per
/// case by default.
enum WorkCounts {
    /// `hunt --random`: queries hunted.
    static let huntQueries = 1...1_000_000
    /// `hunt --orders`: random initiator orders per case.
    static let huntOrders = 0...1_000
    /// `verify --random`: random cases.
    static let verifyCases = 1...10_000_000
    /// `verify --runs-per-case`: engine runs per random case.
    static let verifyRunsPerCase = 1...1_000

    /// Refuses `value` of `option` outside `range`, naming both.
    static func check(_ option: String, _ value: Int, _ range: ClosedRange<Int>) throws {
        guard !range.contains(value) else { return }
        throw ValidationError("\(option): '\(value)' is not valid; expected an integer from \(range.lowerBound) to \(range.upperBound)")
    }
}
