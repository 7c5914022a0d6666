/// A command that writes experiment results (`run`, `merge`): `execute` runs it and maps
/// the outcome or the error to the process exit code, in one place.
public protocol ExperimentInvocation {
    func run(console: Console) throws -> RunOutcome
}

extension ExperimentInvocation {
    public func execute(console: Console) -> Int32 {
        do {
            return try run(console: console).exitCode
        } catch {
            return ExitStatus.code(for: error, console: console)
        }
    }
}
