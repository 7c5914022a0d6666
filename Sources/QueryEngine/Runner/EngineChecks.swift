/// Whether runs check the engine's invariants in the runner's generic path, for every
/// operator: no rows arrive on an operand that already completed, and no node emits the
/// same row twice. A broken invariant fails the run with an internal error. Checking keeps
/// every emitted row, so it costs memory; it is off unless switched on here.
///
/// One place to switch it until the engine's checked mode takes it over.
public enum EngineChecks {
    nonisolated(unsafe) public static var enabled = false
}
