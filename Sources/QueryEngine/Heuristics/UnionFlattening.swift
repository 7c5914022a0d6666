/// `union-flattening` (ahead of time): remove unions of a single operand, fold nested
/// unions into union parents within limits, and collect the nodes this orphans.
public final class UnionFlattening: Heuristic {
    /// The seed's limits: at most 10 operands and 10 parents.
    static let defaultMaxOperands = 10
    static let defaultMaxParents = 10

    public static let flattening = FlagKey<Bool>("union-flattening")
    public static let foldMaxOperands = FlagKey<Int>("union-fold-max-operands")
    public static let foldMaxParents = FlagKey<Int>("union-fold-max-parents")

    public static let flags = [
        FlagSpec(
            name: flattening.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "ahead-of-time: eliminate single-operand unions, fold nested unions into their union parents (within limits), garbage-collect orphaned nodes",
            alwaysListed: true),
        FlagSpec(
            name: foldMaxOperands.name, kind: .integer(minimum: 1),
            allOn: .integer(defaultMaxOperands), allOff: .integer(defaultMaxOperands),
            meaning: "nested-union folding only touches unions (and union parents) with at most this many operands"),
        FlagSpec(
            name: foldMaxParents.name, kind: .integer(minimum: 1),
            allOn: .integer(defaultMaxParents), allOff: .integer(defaultMaxParents),
            meaning: "nested-union folding only folds a union with at most this many parents"),
    ]

    let maxOperands: Int
    let maxParents: Int

    init(maxOperands: Int, maxParents: Int) {
        self.maxOperands = maxOperands
        self.maxParents = maxParents
    }

    public static func make(_ flags: FlagSet) -> UnionFlattening? {
        guard flags.isOn(flattening) else { return nil }
        return UnionFlattening(
            maxOperands: flags[foldMaxOperands] ?? defaultMaxOperands,
            maxParents: flags[foldMaxParents] ?? defaultMaxParents)
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public var optimizerPasses: [any OptimizerPass] {
        [
            SingleOperandUnionElimination(),
            NestedUnionFolding(maxOperands: maxOperands, maxParents: maxParents),
            OrphanCollection(),
        ]
    }
}
