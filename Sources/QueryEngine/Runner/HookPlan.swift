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
        let known = DefaultHooks.shared.known(for: types)
        var callers = Array(repeating: [Int](), count: Self.hookCount)
        for (i, heuristic) in heuristics.enumerated() {
            let wanted = heuristic.hooks(for: graph)
            for hook in HookTimer.Hook.allCases
            where wanted.contains(HeuristicHooks(rawValue: 1 << hook.rawValue)) && !known[i * Self.hookCount + hook.rawValue] {
                callers[hook.rawValue].append(i)
            }
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
    private var defaults: [ObjectIdentifier: [Bool]] = [:]

    /// Per type × hook, flattened; false where not known to be a default.
    func known(for types: [ObjectIdentifier]) -> [Bool] {
        lock.lock()
        defer { lock.unlock() }
        var out: [Bool] = []
        out.reserveCapacity(types.count * HookPlan.hookCount)
        for type in types {
            if let known = defaults[type] { out += known } else { out += repeatElement(false, count: HookPlan.hookCount) }
        }
        return out
    }

    func remember(_ type: ObjectIdentifier, _ hook: HookTimer.Hook) {
        lock.lock()
        defer { lock.unlock() }
        defaults[type, default: Array(repeating: false, count: HookPlan.hookCount)][hook.rawValue] = true
    }
}
