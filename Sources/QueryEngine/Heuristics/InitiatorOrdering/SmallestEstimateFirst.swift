/// The seed's ordering: the source with the smallest estimate under its active filter; a
/// source that cannot estimate counts as larger than any. Ties go to declaration order.
struct SmallestEstimateFirst: InitiatorOrderingStrategy {
    let name = "smallest-estimate"
    let meaning = "smallest current estimate first; no estimate counts as largest"

    func choose(from candidates: [NodeID], run: any RunnerContext) -> NodeID? {
        candidates.min { (run.estimate($0) ?? Int.max) < (run.estimate($1) ?? Int.max) }
    }
}
