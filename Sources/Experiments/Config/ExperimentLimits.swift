/// The range of every number an experiment config gives, checked in one place each before
/// any output exists, so that no later arithmetic (cells × repetitions, warm-up + timed
/// runs) can overflow and an absurd matrix is refused instead of run.
public enum ExperimentLimits {
    /// Timed runs per cell.
    public static let repetitions = 1...100_000
    /// Untimed warm-up runs per cell.
    public static let warmup = 0...10_000
    /// Runs (warm-up and timed) of the whole matrix.
    public static let totalRuns = 10_000_000

    /// nil if `value` lies in `range`, else the problem ("expected an integer in 1...100000, got …").
    public static func check(_ value: Int, in range: ClosedRange<Int>) -> String? {
        range.contains(value) ? nil : "expected an integer in \(range.lowerBound)...\(range.upperBound), got \(value)"
    }

    /// nil if `cells` cells of `warmup + repetitions` runs each stay within `totalRuns`
    /// (computed without trapping), else the problem.
    public static func checkTotal(cells: Int, repetitions: Int, warmup: Int) -> String? {
        let (perCell, o1) = repetitions.addingReportingOverflow(warmup)
        let (total, o2) = perCell.multipliedReportingOverflow(by: cells)
        if o1 || o2 || total > totalRuns {
            return "the matrix has \(cells) cells × (\(repetitions) repetitions + \(warmup) warm-up) runs, "
                + "more than the limit of \(totalRuns) runs; lower repetitions or warmup, or split the matrix"
        }
        return nil
    }
}
