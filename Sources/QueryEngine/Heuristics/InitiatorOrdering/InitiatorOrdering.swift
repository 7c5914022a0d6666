/// `initiator-ordering`: which source the runner drains next. Each choice is a strategy in
/// its own file; `declaration` returns nil, leaving the runner's default (planner order).
public final class InitiatorOrdering: Heuristic {
    /// The strategies, by flag value. Add a line here for a new ordering.
    static let strategies: [any InitiatorOrderingStrategy] = [
        SmallestEstimateFirst(),
        DeclarationOrder(),
        LargestEstimateFirst(),
    ]

    public static let ordering = FlagKey<String>("initiator-ordering")

    public static let flags = [
        FlagSpec(
            name: ordering.name, kind: .choice(strategies.map(\.name)),
            allOn: .choice(SmallestEstimateFirst().name), allOff: .choice(DeclarationOrder().name),
            meaning: "which source to pull from next: "
                + strategies.map { "\($0.name) (\($0.meaning))" }.joined(separator: "; "),
            alwaysListed: true)
    ]

    let strategy: any InitiatorOrderingStrategy

    init(strategy: any InitiatorOrderingStrategy) { self.strategy = strategy }

    public static func make(_ flags: FlagSet) -> InitiatorOrdering? {
        let name = flags[ordering] ?? SmallestEstimateFirst().name
        guard let strategy = strategies.first(where: { $0.name == name }) else { return nil }
        return InitiatorOrdering(strategy: strategy)
    }

    /// Settings only (a strategy keeps no state): one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func chooseInitiator(from candidates: [NodeID], run: any RunnerContext) -> NodeID? {
        strategy.choose(from: candidates, run: run)
    }
}

/// One way of ordering initiators.
public protocol InitiatorOrderingStrategy: Sendable {
    /// The value of the `initiator-ordering` flag that selects it.
    var name: String { get }
    var meaning: String { get }
    /// The next initiator, or nil for declaration order.
    func choose(from candidates: [NodeID], run: any RunnerContext) -> NodeID?
}
