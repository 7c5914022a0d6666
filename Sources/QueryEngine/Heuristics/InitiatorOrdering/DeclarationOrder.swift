/// Sources in the order the planner met them (left operand first from each output).
struct DeclarationOrder: InitiatorOrderingStrategy {
    let name = "declaration"
    let meaning = "the planner's fixed order"

    func choose(from candidates: [NodeID], run: any RunnerContext) -> NodeID? { nil }
}
