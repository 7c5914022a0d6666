import Foundation

/// Time spent inside each heuristic's hooks during one run, per hook, exclusive of hooks
/// it triggers: when `subtree-copying`'s `willProvideFilter` copies a subtree, the
/// `nodesAdded` calls the copy causes are counted under their own heuristic and hook and
/// not again under `willProvideFilter`. So the figures add up to the run's hook time.
///
/// A clock read costs about 0.1 µs, so only hooks a heuristic implements are timed: the
/// runner calls only the hooks its `HookPlan` lists, and a protocol default the plan did not
/// know yet reports itself (`noteDefault`) and is dropped from the plan, uncounted. With
/// `timing` off (`QueryEngine.timesHooks`), hooks are counted but no clock is read.
final class HookTimer {
    enum Hook: Int, CaseIterable {
        case nodesAdded, operandCompleted, deferInitiators, chooseInitiator, willProvideFilter, willNarrowFilter, filterActivated,
            filterNarrowed, vetoesCopy

        var name: String {
            switch self {
            case .nodesAdded: return "nodesAdded"
            case .operandCompleted: return "operandCompleted"
            case .deferInitiators: return "deferInitiators"
            case .chooseInitiator: return "chooseInitiator"
            case .willProvideFilter: return "willProvideFilter"
            case .willNarrowFilter: return "willNarrowFilter"
            case .filterActivated: return "filterActivated"
            case .filterNarrowed: return "filterNarrowed"
            case .vetoesCopy: return "vetoesCopy"
            }
        }
    }

    private static let hooks = Hook.allCases.count
    /// Each heuristic's report name (`name(of:)`), given so a run does not build them again.
    private let names: [String]
    /// Which heuristics each hook calls; shared by the runs of a prepared query.
    let plan: HookPlan
    /// Per heuristic × hook, flattened: how often each was called this run. Raw storage the
    /// timer owns (`deinit` frees it): counting is a few instructions where an array took
    /// a uniqueness check and a bounds check per count, about 40 instructions a hook call
    /// (README "Per-run fixed cost, step 11").
    private let calls: UnsafeMutableBufferPointer<Int>
    /// The slots of `calls` called in this timer's runs so far, ascending (a run calls a
    /// handful of them), so `reports` need not walk every heuristic × hook slot; `listed`
    /// marks them. Kept across the runs of a prepared query, which call the same hooks run
    /// after run: a slot is listed at its first call ever, not at its first call of each
    /// run (about 40 instructions per listing, a dozen or more a run). A listed slot not
    /// called in this run has `calls` 0 and is not reported.
    private var calledSlots: [Int] = []
    private let listed: UnsafeMutableBufferPointer<Bool>
    /// How many slots were called in this run.
    private var calledThisRun = 0
    private var nanoseconds: [Int64]
    /// Time spent in nested hooks, per active frame.
    private var nested: [Int64] = []
    /// Set by a protocol default implementation during the current call.
    private var calledDefault = false
    private let timing: Bool
    /// The last untimed `reports` and the slots they were made from (see `reports`).
    private var lastReports: [HookReport] = []
    private var lastSlots: [Int] = []

    init(heuristics: [any Heuristic], plan: HookPlan, names: [String]? = nil, timing: Bool = true) {
        self.names = names ?? heuristics.map(Self.name(of:))
        self.plan = plan
        self.timing = timing
        let slots = heuristics.count * Self.hooks
        calls = UnsafeMutableBufferPointer<Int>.allocate(capacity: slots)
        calls.initialize(repeating: 0)
        listed = UnsafeMutableBufferPointer<Bool>.allocate(capacity: slots)
        listed.initialize(repeating: false)
        calledSlots.reserveCapacity(16)
        nanoseconds = timing ? Array(repeating: 0, count: slots) : []
    }

    deinit {
        calls.deallocate()
        listed.deallocate()
    }

    /// Counts and times nothing again, for the next run of the same prepared query (same
    /// heuristics, plan, names and timing): the count arrays are zeroed where a call was
    /// counted instead of allocated anew per run.
    func resetForRun() {
        for slot in calledSlots {
            calls[slot] = 0
            if timing { nanoseconds[slot] = 0 }
        }
        calledThisRun = 0
        nested.emptyKeepingCapacity()
        calledDefault = false
    }

    /// A heuristic's name in reports: its first flag's name (`subtree-copying`, …).
    static func name(of heuristic: any Heuristic) -> String {
        type(of: heuristic).flags.first?.name ?? String(describing: type(of: heuristic))
    }

    /// The hook being timed is the protocol's empty default: not recorded.
    func noteDefault() { calledDefault = true }

    /// Calls `body`, heuristic `heuristic`'s `hook`, counting (and timing) it.
    func time<T>(_ heuristic: Int, _ hook: Hook, _ body: () -> T) -> T {
        let slot = heuristic * Self.hooks + hook.rawValue
        // Every exit leaves `calledDefault` false, so a nested default cannot mark its caller.
        guard timing else { return countUntimed(heuristic, hook, slot, body) }
        let start = Self.now()
        nested.append(0)
        calledDefault = false
        let result = body()
        let total = Self.now() - start
        let inner = nested.removeLast()
        if !nested.isEmpty { nested[nested.count - 1] += total }
        if calledDefault {
            calledDefault = false
            plan.learnDefault(heuristic, hook)
            return result
        }
        count(slot)
        nanoseconds[slot] += total - inner
        return result
    }

    /// A call counted without reading the clock.
    private func countUntimed<T>(_ heuristic: Int, _ hook: Hook, _ slot: Int, _ body: () -> T) -> T {
        calledDefault = false
        let result = body()
        if calledDefault {
            calledDefault = false
            plan.learnDefault(heuristic, hook)
        } else {
            count(slot)
        }
        return result
    }

    private func count(_ slot: Int) {
        let called = calls[slot] + 1
        calls[slot] = called
        guard called == 1 else { return }
        calledThisRun += 1
        if listed[slot] { return }
        listed[slot] = true
        // Appended and moved down into place: `insert(_:at:)` took the array's generic range
        // replacement, about 90 instructions a first call, a dozen first calls a run.
        var at = calledSlots.count
        calledSlots.append(slot)
        while at > 0 && calledSlots[at - 1] > slot {
            calledSlots[at] = calledSlots[at - 1]
            at -= 1
        }
        calledSlots[at] = slot
    }

    /// Every (heuristic, hook) that was called, in catalog then hook order (the order of
    /// the flattened slots).
    var reports: [HookReport] {
        var out: [HookReport] = []
        guard calledThisRun > 0 else { return out }
        // Untimed, a prepared query's runs usually call the same hooks as often as the last
        // run did: its list is then given again (shared, copy-on-write) instead of built anew
        // with a name and hook string per report.
        if !timing, lastReports.count == calledThisRun, lastSlots.count == calledThisRun {
            var same = true
            var i = 0
            for slot in calledSlots where calls[slot] > 0 {
                if lastSlots[i] != slot || lastReports[i].calls != calls[slot] {
                    same = false
                    break
                }
                i += 1
            }
            if same { return lastReports }
        }
        out.reserveCapacity(calledThisRun)
        for slot in calledSlots where calls[slot] > 0 {
            let hook = Hook(rawValue: slot % Self.hooks) ?? .nodesAdded
            out.append(HookReport(
                heuristic: names[slot / Self.hooks], hook: hook.name, calls: calls[slot],
                microseconds: timing ? Double(nanoseconds[slot]) / 1_000 : 0))
        }
        if !timing {
            lastReports = out
            lastSlots = calledSlots.filter { calls[$0] > 0 }
        }
        return out
    }

    /// The monotonic clock in nanoseconds (read directly: cheaper than `ContinuousClock`).
    private static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

/// What one heuristic's hook cost in one run.
public struct HookReport: Sendable, Equatable {
    public let heuristic: String
    public let hook: String
    public let calls: Int
    /// Wall-clock time inside the hook, excluding hooks it triggered.
    public let microseconds: Double

    /// `heuristic.hook`, e.g. `subtree-copying.willProvideFilter`.
    public var name: String { "\(heuristic).\(hook)" }
}
