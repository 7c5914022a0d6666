import Relational

/// `self-operand-folding` (ahead of time): a natural join or intersection of a node with
/// itself is that node, and a difference of a node with itself is empty; so are `(x select
/// p) minus x` (empty) and `x join (x project [a])` (`x`) (`SelfOperandRewrite`). Left in
/// the plan, both edges of such a node hear the parental filter that reaches it, and
/// subtree copying gives each its own copy of the shared side, which then reads the same
/// rows again, once for every self-join stacked on it. Issue 15, held-out seed 216 case
/// 1904 at `--rows 3000`: `(t0 join (t1 join t1) union t1) join t0`, `t1` 2,965 rows
/// indexed on `c`; `t0`'s 229 keys match 974 of them, and `t1` was read three times under
/// those keys (3,151 rows against 1,203 without copying); with `t1 join t1 join t1 join
/// t1`, five times (5,099). A folded join can leave `t3 minus t3` (hunt corpus seed 421
/// case 630 at `--rows 300`, `t3 join (t3 join t3 minus t3) select (b <= 3 and b > 40)`):
/// the difference's two edges to `t3` then wait on each other's parent and the outer join,
/// and `t3` was read whole (85 rows, against none before); as `t3 select (false)` it reads
/// nothing. Since the forty-ninth session `x join (x select p)` and `x intersect (x select
/// p)` fold to `x select p` too, and a second pass, `select-folding` (`SelectFolding`),
/// makes the select chains such folds leave one select, and a select no row meets `select
/// (false)`.
public final class SelfOperandFolding: Heuristic {
    public static let folding = FlagKey<Bool>("self-operand-folding")

    public static let flags = [
        FlagSpec(
            name: folding.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "ahead-of-time: a natural join or intersection of a node with itself, or with its own projection or select, is that node or select (its parents read it directly); a difference of a node (or a select of it) minus the node is empty (a select (false) of it); a chain of selects is one select",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> SelfOperandFolding? {
        flags.isOn(folding) ? SelfOperandFolding() : nil
    }

    /// No settings and no state: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    /// A rewrite before the run; nothing to do while it runs.
    public func hooks(for graph: PlanGraph) -> HeuristicHooks { .none }

    public var optimizerPasses: [any OptimizerPass] { [SelfOperandRewrite(), SelectFolding()] }
}
