import QueryEngine
import Relational
import Workloads

/// Shrinks a failing case to a small one that still fails, in the manner of delta
/// debugging: repeatedly try smaller variants and keep the first that still shows a
/// disagreement of the same blame, until no variant helps (or the check budget runs out).
/// Variants: fewer outputs; a node replaced by one of its operands; simpler select
/// predicates; fewer rows (halves, then smaller chunks, then single rows, per table); no
/// indexes; the memory backend; the default batch size; and each flag moved to its `all-on`, then `all-off` value,
/// so what is left of the flag set is what the failure needs.
public struct Reducer {
    public let catalog: HeuristicCatalog
    /// At most this many candidate checks in all.
    public var budget: Int
    /// The baseline engines, to reduce a `baseline` disagreement (nil otherwise).
    public var baselines: BaselineOracles?

    public init(catalog: HeuristicCatalog = .standard, budget: Int = 3000) {
        self.catalog = catalog
        self.budget = budget
    }

    /// The reduced case and how many candidates were checked.
    public func reduce(_ failing: FailingCase) -> (FailingCase, checks: Int) {
        var start = failing
        start.graph = start.graph.compacted()
        let session = ReductionSession(
            current: start, test: FailureTest(
                catalog: catalog, blamesEngine: failing.mismatch.kind.blamesEngine,
                baselines: failing.mismatch.kind == .baseline ? baselines : nil),
            budget: budget)
        var progress = true
        while progress && !session.exhausted {
            progress = false
            if session.firstFailing(GraphCandidates.droppingOutputs(session.current.graph)) { progress = true; continue }
            if session.firstFailing(GraphCandidates.hoistingOperands(session.current.graph)) { progress = true; continue }
            if reduceRows(session) { progress = true }
            if session.firstFailing(GraphCandidates.simplifyingPredicates(session.current.graph)) { progress = true }
            if session.firstFailing(GraphCandidates.droppingIndexes(session.current.graph)) { progress = true }
            if session.current.backend != .memory,
                session.attempt(session.current.graph, session.current.flags, .memory)
            {
                progress = true
            }
            if session.current.batchSize != CaseChecker.defaultBatchSize,
                session.attempt(session.current.graph, session.current.flags, session.current.backend,
                                batchSize: CaseChecker.defaultBatchSize)
            {
                progress = true
            }
            if reduceFlags(session) { progress = true }
        }
        return (session.current, session.test.checks)
    }

    /// ddmin over each table's rows: remove chunks of half the rows, then quarters, ...,
    /// then single rows, keeping every removal after which the case still fails.
    private func reduceRows(_ session: ReductionSession) -> Bool {
        var changed = false
        for t in session.current.graph.tables.indices {
            var chunk = max(1, session.current.graph.tables[t].rows.count / 2)
            while !session.exhausted {
                var start = 0
                while start < session.current.graph.tables[t].rows.count && !session.exhausted {
                    var rows = session.current.graph.tables[t].rows
                    rows.removeSubrange(start..<min(rows.count, start + chunk))
                    var candidate = session.current.graph
                    candidate.tables[t] = candidate.tables[t].replacingRows(rows)
                    if session.attempt(candidate, session.current.flags, session.current.backend) {
                        changed = true
                    } else {
                        start += chunk
                    }
                }
                if chunk == 1 { break }
                chunk = max(1, chunk / 2)
            }
        }
        return changed
    }

    /// Moves each flag to its value in whichever preset (`all-on` or `all-off`) the flags
    /// are closer to, keeping moves that still fail: what remains is the difference from
    /// that preset the failure needs. (One direction only, so it cannot oscillate.)
    private func reduceFlags(_ session: ReductionSession) -> Bool {
        guard let target = closerPreset(to: session.current.flags) else { return false }
        var changed = false
        for spec in catalog.flags {
            let flags = session.current.flags
            guard let wanted = target[spec.name], flags[spec.name] != wanted else { continue }
            var set: [String: String] = [:]
            for s in catalog.flags { set[s.name] = flags[s.name]?.description }
            set[spec.name] = wanted.description
            if let moved = try? catalog.flagSet(preset: "all-on", set: set),
                session.attempt(session.current.graph, moved, session.current.backend)
            {
                changed = true
            }
        }
        return changed
    }

    private func closerPreset(to flags: FlagSet) -> FlagSet? {
        guard let on = try? catalog.preset("all-on"), let off = try? catalog.preset("all-off") else { return nil }
        let names = catalog.flags.map(\.name)
        let fromOn = names.filter { flags[$0] != on[$0] }.count
        let fromOff = names.filter { flags[$0] != off[$0] }.count
        return fromOn <= fromOff ? on : off
    }
}

/// The state of one reduction: the smallest failing case so far and the check budget.
private final class ReductionSession {
    var current: FailingCase
    var test: FailureTest
    let budget: Int

    init(current: FailingCase, test: FailureTest, budget: Int) {
        self.current = current
        self.test = test
        self.budget = budget
    }

    var exhausted: Bool { test.checks >= budget }

    /// Checks a candidate; if it still fails it becomes the current case.
    func attempt(_ graph: CaseGraph, _ flags: FlagSet, _ backend: Backend, batchSize: Int? = nil) -> Bool {
        let batch = batchSize ?? current.batchSize
        guard !exhausted,
            graph != current.graph || flags != current.flags || backend != current.backend || batch != current.batchSize,
            let m = test.failure(graph, flags, backend, batch)
        else { return false }
        current = FailingCase(graph: graph, flags: flags, backend: backend, batchSize: batch, mismatch: m)
        return true
    }

    func firstFailing(_ candidates: [CaseGraph]) -> Bool {
        for c in candidates where attempt(c, current.flags, current.backend) { return true }
        return false
    }
}
