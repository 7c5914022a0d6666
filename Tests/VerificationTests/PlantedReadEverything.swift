import QueryEngine
import Relational

/// A planted performance regression for the hunt's tests: an initiator ordering that
/// drains the largest source first, so a small side's join filter never gets to narrow a
/// large one and the large table is read in full. Results stay correct; only work grows.
final class PlantedReadEverything: Heuristic {
    static let planted = FlagKey<Bool>("read-everything")

    static let flags = [
        FlagSpec(name: planted.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
                 meaning: "test only: drain the largest source first")
    ]

    static func make(_ flags: FlagSet) -> PlantedReadEverything? {
        flags.isOn(planted) ? PlantedReadEverything() : nil
    }

    func chooseInitiator(from candidates: [NodeID], run: any RunnerContext) -> NodeID? {
        candidates.max { (run.estimate($0) ?? Int.max) < (run.estimate($1) ?? Int.max) }
    }

    /// The standard catalog with this heuristic ahead of the initiator ordering, and without
    /// `filter-aware-ordering`, whose deferrals would otherwise keep the large source out of
    /// the candidates this heuristic picks from.
    static var catalog: HeuristicCatalog {
        var heuristics = HeuristicCatalog.standard.heuristics.filter {
            ObjectIdentifier($0) != ObjectIdentifier(FilterAwareOrdering.self)
        }
        heuristics.insert(PlantedReadEverything.self, at: 0)
        return HeuristicCatalog(heuristics)
    }
}
