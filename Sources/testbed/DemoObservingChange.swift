import QueryEngine
import Relational

/// The demo's seed 001 "PLRelational: Observing Change" section: the fruit example's six
/// steps run as transactions, each followed by the changes its observers receive, printed
/// as the article prints them (relations a step leaves unchanged are not shown).
enum ObservingChangeDemo {
    static let name = "observing-change"
    static let summary = "fruits, selectedFruitIDs, selectedFruits, selectedFruitName through steps 1-6"

    static func render() throws -> String {
        let example = try FruitExample(engine: try QueryEngine(preset: "all-on"))
        var out = "# Seed 001: PLRelational: Observing Change\n\n"
        out += "== \(name): selectedFruits = (fruits join [id = fruit_id] selectedFruitIDs) project [id, name]; "
            + "selectedFruitName = selectedFruits project [name]\n\n"
        for (number, step) in FruitExample.steps.enumerated() {
            out += "-- \(step.title)\n\(step.code)\n\n"
            out += example.render(try example.run(step: number + 1))
        }
        return out
    }
}
