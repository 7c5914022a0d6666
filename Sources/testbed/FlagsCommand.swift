import ArgumentParser
import QueryEngine

struct FlagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flags",
        abstract: "List the optimizer heuristics: name, values, all-on default, all-off value and meaning.",
        discussion: "Use them with --preset all-on|seed|all-off (seed: seed 000's heuristics at their defaults, later ones off), --enable NAME, --disable NAME and --set NAME=VALUE."
    )

    func run() throws {
        let specs = HeuristicCatalog.standard.flags
        var table = [["name", "values", "all-on", "all-off", "meaning"]]
        for spec in specs {
            table.append([spec.name, spec.kind.summary, spec.allOn.description, spec.allOff.description, spec.meaning])
        }
        var widths = [Int](repeating: 0, count: 4)
        for row in table {
            for i in 0..<4 { widths[i] = max(widths[i], row[i].count) }
        }
        for row in table {
            var line = ""
            for i in 0..<4 { line += row[i] + String(repeating: " ", count: widths[i] - row[i].count + 2) }
            print(line + row[4])
        }
        let canonical = (try? HeuristicCatalog.standard.preset("all-on").canonical) ?? ""
        print("\nall-on: \(canonical)")
        print("seed: \((try? HeuristicCatalog.standard.preset("seed").canonical) ?? "")")
    }
}
