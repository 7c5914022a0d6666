import Foundation

/// Which heuristics each hook calls, worked out once per prepared query so a run loops over
/// only those. A heuristic's hook is left out when the heuristic said it cannot act on the
/// graph (`Heuristic.hooks(for:)`) or when the hook is the protocol's empty default: a
/// default reports itself when called (`HookTimer.noteDefault`), which is remembered per
/// heuristic type for the process (`DefaultHooks`) and dropped from this plan at once, so
/// only a process's first runs ever call one.
final class HookPlan {
    static let hookCount = HookTimer.Hook.allCases.count

    /// Per hook (`HookTimer.Hook.rawValue`): the heuristics to call, in catalog order.
    private(set) var callers: [[Int]]
    private let types: [ObjectIdentifier]

    init(heuristics: [any Heuristic], graph: PlanGraph) {
        types = heuristics.map { ObjectIdentifier(type(of: $0)) }
        let defaults = DefaultHooks.shared.known(for: types)
        var wanted: [HeuristicHooks] = []
        wanted.reserveCapacity(heuristics.count)
        var counts = (0..<Self.hookCount).map { _ in 0 }
        for (i, heuristic) in heuristics.enumerated() {
            let hooks = heuristic.hooks(for: graph).subtracting(defaults[i])
            wanted.append(hooks)
            for hook in 0..<Self.hookCount where hooks.rawValue & (1 << hook) != 0 { counts[hook] += 1 }
        }
        // Each list allocated once at its size (prepared per `QueryEngine.run`: `filter` grew
        // each list append by append, about 20 allocations a plan).
        var callers: [[Int]] = []
        callers.reserveCapacity(Self.hookCount)
        for hook in 0..<Self.hookCount {
            var list: [Int] = []
            if counts[hook] > 0 {
                list.reserveCapacity(counts[hook])
                for i in wanted.indices where wanted[i].rawValue & (1 << hook) != 0 { list.append(i) }
            }
            callers.append(list)
        }
        self.callers = callers
    }

    /// Heuristic `index`'s `hook` turned out to be the protocol's empty default.
    func learnDefault(_ index: Int, _ hook: HookTimer.Hook) {
        callers[hook.rawValue].removeAll { $0 == index }
        DefaultHooks.shared.remember(types[index], hook)
    }
}

/// Which hooks of each heuristic type are the protocol's empty defaults, learnt by the runs
/// of this process (the answer is fixed per type).
final class DefaultHooks: @unchecked Sendable {
    static let shared = DefaultHooks()
    private let lock = NSLock()
    private var defaults: [ObjectIdentifier: HeuristicHooks] = [:]

    /// Per type, the hooks known to be defaults.
    func known(for types: [ObjectIdentifier]) -> [HeuristicHooks] {
        lock.lock()
        defer { lock.unlock() }
        return types.map { defaults[$0] ?? .none }
    }

    func remember(_ type: ObjectIdentifier, _ hook: HookTimer.Hook) {
        lock.lock()
        defer { lock.unlock() }
        defaults[type, default: .none].insert(HeuristicHooks(rawValue: 1 << hook.rawValue))
    }
}
