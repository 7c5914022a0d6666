/// The seed's ordering turned around, as a baseline that shows what the ordering buys:
/// the largest estimate first (no estimate counts as largest). Ties go to declaration order.
struct LargestEstimateFirst: InitiatorOrderingStrategy {
    let name = "largest-estimate"
    let meaning = "largest current estimate first, a deliberately bad baseline"

    func choose(from candidates: [NodeID], run: any RunnerContext) -> NodeID? {
        var best: (id: NodeID, size: Int)?
        for id in candidates {
            let size = run.estimate(id) ?? Int.max
            if best == nil || size > best!.size { best = (id, size) }
        }
        return best?.id
    }
}
