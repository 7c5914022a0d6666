import ArgumentParser
import QueryEngine

/// `--disable-pass NAME` (repeatable) and `--validate`: how `query` and `run` drive the
/// engine beyond the heuristic flags.
struct EngineOptions: ParsableArguments {
    @Option(name: .customLong("disable-pass"),
            help: ArgumentHelp("Skip an optimizer pass by name (repeatable), as DuckDB's disabled_optimizers.",
                               valueName: "name"))
    var disabledPasses: [String] = []

    @Flag(help: "Checked mode: validate the plan graph around every pass and runtime edit, and fail on a broken engine invariant (also TESTBED_VALIDATE=1).")
    var validate = false

    /// Sets the engine's disabled passes and checked mode, or exits 2 naming an unknown pass.
    func apply(to engine: inout QueryEngine) throws {
        do { try engine.catalog.checkPassNames(disabledPasses) } catch {
            throw usageFailure("--disable-pass: \(error)")
        }
        engine.disabledPasses = Set(disabledPasses)
        if validate { engine.checked = true }
    }
}
