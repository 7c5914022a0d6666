import ArgumentParser
import Engines

struct EnginesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engines",
        abstract: "List the registered baseline engines: name, backend, whether it is installed here, settings.",
        discussion: "Name them in a config's baselines (NAME or {engine: NAME, name: LABEL, settings: {...}}), "
            + "in `testbed query --engine NAME` and in `testbed verify --engines A,B`. "
            + "With --available, print only the names of those installed here, comma-separated."
    )

    @Flag(help: "Print only the installed engines' names, comma-separated (for scripts).")
    var available = false

    func run() throws {
        if available {
            print(EngineRegistry.kinds.filter { $0.missing() == nil }.map(\.name).joined(separator: ","))
            return
        }
        let width = EngineRegistry.names.map(\.count).max() ?? 0
        for kind in EngineRegistry.kinds {
            let status = kind.missing().map { "NOT INSTALLED: \($0)" } ?? "installed"
            print(kind.name + String(repeating: " ", count: width - kind.name.count) + "  backend \(kind.backend); \(kind.summary); \(status)")
            for setting in kind.settingsHelp { print(String(repeating: " ", count: width + 2) + "setting " + setting) }
        }
    }
}
