import FileSupport

/// `--shard K/N`: the cells whose position in the canonical order is K-1 modulo N. Dealing
/// cells round-robin spreads every size over every shard, so shards take similar time.
public struct Shard: Equatable, Sendable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public static let whole = Shard(index: 1, count: 1)

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 1 ≤ K ≤ N.
    public init(parsing text: String) throws {
        guard let shard = Self.parsed(text) else {
            throw ExperimentFailure.usage("--shard '\(text)': \(Self.expected)")
        }
        self = shard
    }

    /// `K/N` with 1 ≤ K ≤ N, or nil.
    static func parsed(_ text: String) -> Shard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy(DecimalText.isDecimalInteger),
              let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else { return nil }
        return Shard(index: k, count: n)
    }

    static let expected = "expected K/N in decimal digits with 1 <= K <= N, e.g. 2/4"

    public var isWhole: Bool { count == 1 }

    public func contains(position: Int) -> Bool { position % count == index - 1 }

    public func select(_ cells: [Cell]) -> [Cell] {
        cells.enumerated().filter { contains(position: $0.offset) }.map(\.element)
    }

    public var description: String { "\(index)/\(count)" }
}
