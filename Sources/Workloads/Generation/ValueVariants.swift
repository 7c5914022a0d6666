import Relational

/// Optional variations that put the engine's harder cases into generated data, so the
/// catalog verification meets them (shape parameters, all off by default):
///
/// - `reals`: each key value is stored, with this probability, as the equal real (`3.0`
///   for `3`), so joins, differences and indexes must treat `3` and `3.0` as one value.
/// - `null-names`: each name is null with this probability, so nulls reach selects and
///   the right side of differences.
///
/// The draws come from their own SplitMix64 stream (the dataset seed mixed with a
/// constant), taken after the shape's own draws, so every other value is the same as
/// without the variation, and a dataset without these parameters is byte-identical to one
/// generated before they existed.
struct ValueVariants {
    static let parameterNames = ["null-names", "reals"]

    let reals: Double
    let nullNames: Double
    private var random: SplitMix64Generator

    init(_ request: GenerationRequest) throws {
        reals = try request.parameters.fraction("reals")
        nullNames = try request.parameters.fraction("null-names")
        random = SplitMix64Generator(seed: request.seed ^ 0x7661_7269_616E_7473)
    }

    /// True when a parameter asks for a variation (the data then differs from the default).
    var isActive: Bool { reals > 0 || nullNames > 0 }

    /// `value`, or the equal real when drawn (integers only; others pass unchanged).
    mutating func key(_ value: Value) -> Value {
        guard reals > 0, case let .integer(i) = value, draw(reals) else { return value }
        return .real(Double(i))
    }

    /// `value`, or null when drawn.
    mutating func name(_ value: Value) -> Value {
        guard nullNames > 0, draw(nullNames) else { return value }
        return .null
    }

    /// Notes for the dataset summary (none when inactive, so summaries stay as they were).
    var notes: [String] {
        isActive ? ["variants: reals=\(reals), null-names=\(nullNames)"] : []
    }

    private mutating func draw(_ p: Double) -> Bool {
        Double(random.next() >> 11) / Double(UInt64(1) << 53) < p
    }
}
