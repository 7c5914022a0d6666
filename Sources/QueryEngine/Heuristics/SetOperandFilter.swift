import Relational

/// `set-operand-filter` with `set-operand-filter-max-rows`: the join key filter, for set
/// operations. When one operand of an intersection is complete, or the left operand of a
/// difference, and it has at most `max-rows` rows, those rows become an IN-set over every
/// attribute on the other operand (the right one for a difference), while a source under
/// that operand is still to be drained; along an edge that already has a filter it narrows
/// that filter. Sound: a row of the other operand outside the complete one can neither be in
/// the intersection nor remove a row from the difference, whether it comes before the
/// filter or after.
///
/// The other operand may have started, as the join key filter's may (`JoinFilterThreshold`):
/// rows of a source drained for another parent may have reached it, while a source under it
/// still waits. Issue 15, held-out seed 297 case 1817 at `--rows 300`: `shared = t1 join t0`
/// under `shared intersect (t0 select (21 <= c) join [b = b, e = d] t1)`, `t1` (5 rows)
/// drained first into both joins. The right operand completed empty, but the left, `shared`,
/// had started with `t1`'s rows, so it got no `false` and its `t0` read 16 rows by `t1`'s
/// keys (21 rows against 5; with `shared union shared` kept unflattened the union above it
/// had not started and passed the `false` down).
///
/// No filter is built that has as many keys as the rows it could keep from being read
/// (`RunnerContext.rowsLeftToRead`). The catalog's `available-tags`, `tags minus
/// (selected_item_ids join item_tags join tags) project […]` at 100k items: the complete
/// `tags` (10,000 rows) became an IN-set of 10,000 keys on the right side, whose only source
/// left was a copy of `tags` the join had keyed to 2 rows; the same 10,003 rows were read,
/// in 4.6 times `seed`'s instructions.
///
/// The case: "which selected documents have no children",
/// `selected_documents minus (documents project [parent_id] rename [parent_id -> id])`.
/// Nothing in the seed filters a set operation's operands, so every document is read; with
/// this filter the rename turns `id in {s}` into `parent_id in {s}` and the index on
/// `parent_id` fetches only the selected documents' children.
public final class SetOperandFilter: Heuristic {
    static let defaultMaxRows = 10_000

    public static let filtering = FlagKey<Bool>("set-operand-filter")
    public static let maxRows = FlagKey<Int>("set-operand-filter-max-rows")

    public static let flags = [
        FlagSpec(
            name: filtering.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "a complete operand of an intersection (or the left operand of a difference) becomes an IN-set filter on the other (right) operand, when it has fewer rows than that operand can still read",
            laterThanSeed: true),
        FlagSpec(
            name: maxRows.name, kind: .integer(minimum: 0), allOn: .integer(defaultMaxRows),
            allOff: .integer(defaultMaxRows),
            meaning: "set-operand-filter turns a complete operand into a filter only when it has at most this many rows",
            laterThanSeed: true),
    ]

    let maxRows: Int

    init(maxRows: Int) { self.maxRows = maxRows }

    public static func make(_ flags: FlagSet) -> SetOperandFilter? {
        guard flags.isOn(filtering) else { return nil }
        return SetOperandFilter(maxRows: flags[maxRows] ?? defaultMaxRows)
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.contains { Self.filteredOperand($0, completed: 0) != nil } ? .all : .none
    }

    public func operandCompleted(_ edge: Edge, run: any RunnerContext) {
        guard case let .apply(op) = run.graph[edge.parent].operation,
            let target = Self.filteredOperand(op, completed: edge.operand)
        else { return }
        let otherEdge = Edge(parent: edge.parent, operand: target)
        let other = run.graph.child(at: otherEdge)
        // An edge that already has a filter (`true` from a select above, say) is narrowed
        // by the runner: the hunt found `(t2 intersect t1) select (true)` with `t1` empty
        // reading all of `t2` while this guard refused provided edges.
        guard !run.isComplete(other), run.hasUndrainedSource(below: other) else { return }
        let readable = run.rowsLeftToRead(below: other)
        guard readable > 0,
            let rows = run.operandRows(of: edge.parent, operand: edge.operand, atMost: min(maxRows, readable - 1))
        else { return }
        let attributes = run.graph[run.graph.child(at: edge)].scheme.attributes
        let filter: Predicate = rows.isEmpty ? .false : .inSet(attributes: attributes, keys: Set(rows))
        run.provideFilter(filter, along: otherEdge)
    }

    /// The operand a complete operand can filter, if any.
    static func filteredOperand(_ op: Operator, completed operand: Int) -> Int? {
        switch op {
        case .intersection: return 1 - operand
        case .difference: return operand == 0 ? 1 : nil
        case .union, .select, .project, .rename, .join, .closure: return nil
        }
    }
}
