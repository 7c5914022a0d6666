import Relational

/// The engine kernel of each operator, compiled once per node (copies take a fresh copy).
enum KernelFactory {
    static func make(_ op: Operator, operands: [Scheme], output: Scheme) throws -> any Kernel {
        switch op {
        case .union:
            return UnionKernel()
        case .intersection:
            return IntersectionKernel()
        case .difference:
            return DifferenceKernel()
        case let .select(predicate):
            return SelectKernel(test: try CompiledPredicate(predicate, scheme: operands[0]))
        case .project:
            return ProjectKernel(map: .project(from: operands[0], to: output))
        case let .rename(map):
            return RenameKernel(map: .rename(from: operands[0], to: output, map: map))
        case let .join(pairs):
            return HashJoinKernel(left: operands[0], right: operands[1], pairs: pairs, output: output)
        case let .closure(from, to):
            return ClosureKernel(from: from, to: to, scheme: output)
        }
    }
}
