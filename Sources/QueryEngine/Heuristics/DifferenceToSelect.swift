import Relational

/// `difference-to-select` (ahead of time): `A minus (A select p)` under a select whose
/// predicate contradicts `not p` becomes `A select (not p)` (`DifferenceToSelectRewrite`;
/// every such difference with `difference-to-select-always`). A difference passes its
/// parental filter to both operands but nothing of its right side to its left, so `A` was
/// read under the parent's filter alone. As a select, `not p` joins that filter on the way
/// to `A`'s sources, where an index can answer it or the two can be seen to contradict. Held-out hunt seed 298 case 1506
/// (default rows): `(shared minus shared select (e <= a or …)) select (e <= a) intersect …`
/// is empty, as `e <= a` and `not (e <= a or …)` contradict, but every preset read the
/// intersection's other side whole first: 712 rows where declaration order read 115.
public final class DifferenceToSelect: Heuristic {
    public static let rewrite = FlagKey<Bool>("difference-to-select")
    public static let always = FlagKey<Bool>("difference-to-select-always")

    public static let flags = [
        FlagSpec(
            name: rewrite.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "ahead-of-time: rewrite A minus (A select p) under a select whose predicate contradicts not p as A select (not p), which the sources can then see match nothing",
            laterThanSeed: true),
        FlagSpec(
            name: always.name, kind: .toggle, allOn: .toggle(false), allOff: .toggle(false),
            meaning: "difference-to-select rewrites every A minus (A select p), whatever is above it (fewer rows on most such queries, far more on a few)",
            laterThanSeed: true),
    ]

    let rewritesAll: Bool

    init(rewritesAll: Bool) { self.rewritesAll = rewritesAll }

    public static func make(_ flags: FlagSet) -> DifferenceToSelect? {
        flags.isOn(rewrite) ? DifferenceToSelect(rewritesAll: flags.isOn(always)) : nil
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    /// A rewrite before the run; nothing to do while it runs.
    public func hooks(for graph: PlanGraph) -> HeuristicHooks { .none }

    public var optimizerPasses: [any OptimizerPass] { [DifferenceToSelectRewrite(always: rewritesAll)] }
}
