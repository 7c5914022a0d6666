/// Time spent inside each heuristic's hooks during one run, per hook, exclusive of hooks
/// it triggers: when `subtree-copying`'s `willProvideFilter` copies a subtree, the
/// `nodesAdded` calls the copy causes are counted under their own heuristic and hook and
/// not again under `willProvideFilter`. So the figures add up to the run's hook time.
final class HookTimer {
    enum Hook: Int, CaseIterable {
        case nodesAdded, operandCompleted, chooseInitiator, willProvideFilter

        var name: String {
            switch self {
            case .nodesAdded: return "nodesAdded"
            case .operandCompleted: return "operandCompleted"
            case .chooseInitiator: return "chooseInitiator"
            case .willProvideFilter: return "willProvideFilter"
            }
        }
    }

    private let names: [String]
    private var calls: [[Int]]
    private var elapsed: [[Duration]]
    /// Time spent in nested hooks, per active frame.
    private var nested: [Duration] = []
    private let clock = ContinuousClock()
    /// Set by a protocol default implementation during the current call.
    private var calledDefault = false
    /// Hooks seen to be the protocol's empty default: called untimed from then on (the
    /// implementation is fixed per type), so unimplemented hooks cost no clock reads.
    private var isDefault: [[Bool]]

    init(heuristics: [any Heuristic]) {
        names = heuristics.map { HookTimer.name(of: $0) }
        calls = Array(repeating: Array(repeating: 0, count: Hook.allCases.count), count: heuristics.count)
        elapsed = Array(repeating: Array(repeating: .zero, count: Hook.allCases.count), count: heuristics.count)
        isDefault = Array(repeating: Array(repeating: false, count: Hook.allCases.count), count: heuristics.count)
    }

    /// A heuristic's name in reports: its first flag's name (`subtree-copying`, …).
    static func name(of heuristic: any Heuristic) -> String {
        type(of: heuristic).flags.first?.name ?? String(describing: type(of: heuristic))
    }

    /// The hook being timed is the protocol's empty default: not recorded.
    func noteDefault() { calledDefault = true }

    func time<T>(_ heuristic: Int, _ hook: Hook, _ body: () -> T) -> T {
        // Every exit leaves `calledDefault` false, so a nested default cannot mark its caller.
        if isDefault[heuristic][hook.rawValue] {
            let result = body()
            calledDefault = false
            return result
        }
        let start = clock.now
        nested.append(.zero)
        calledDefault = false
        let result = body()
        let total = clock.now - start
        let inner = nested.removeLast()
        if calledDefault {
            calledDefault = false
            isDefault[heuristic][hook.rawValue] = true
            if !nested.isEmpty { nested[nested.count - 1] += total }
            return result
        }
        calls[heuristic][hook.rawValue] += 1
        elapsed[heuristic][hook.rawValue] += total - inner
        if !nested.isEmpty { nested[nested.count - 1] += total }
        return result
    }

    /// Every (heuristic, hook) that was called, in catalog then hook order.
    var reports: [HookReport] {
        var out: [HookReport] = []
        for (h, name) in names.enumerated() {
            for hook in Hook.allCases where calls[h][hook.rawValue] > 0 {
                out.append(HookReport(
                    heuristic: name, hook: hook.name, calls: calls[h][hook.rawValue],
                    microseconds: elapsed[h][hook.rawValue].microseconds))
            }
        }
        return out
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
