/// What one transaction did to an ordered view, as index-level changes (GlueKit's
/// `ArrayChange`): removals at indices of the old array, insertions at indices of the new
/// array, and moves of a row whose sort key changed, from its old index to its new one.
///
/// To apply it, take out every removal and every move's source from the old array, then
/// put every insertion and every move's row in at its new index in ascending order of
/// index; the result is the new array.
public struct OrderedChange: Equatable, Sendable {
    public struct Removal: Equatable, Sendable {
        public let index: Int
        public let row: Row
    }

    public struct Insertion: Equatable, Sendable {
        public let index: Int
        public let row: Row
    }

    public struct Move: Equatable, Sendable {
        public let from: Int
        public let to: Int
        public let old: Row
        public let new: Row
    }

    /// Ascending by old index.
    public var removals: [Removal]
    /// Ascending by new index.
    public var insertions: [Insertion]
    /// Ascending by new index.
    public var moves: [Move]

    public init(removals: [Removal] = [], insertions: [Insertion] = [], moves: [Move] = []) {
        self.removals = removals.sorted { $0.index < $1.index }
        self.insertions = insertions.sorted { $0.index < $1.index }
        self.moves = moves.sorted { $0.to < $1.to }
    }

    public var isEmpty: Bool { removals.isEmpty && insertions.isEmpty && moves.isEmpty }

    /// `old` with this change applied.
    public func applied(to old: [Row]) -> [Row] {
        let gone = Set(removals.map(\.index) + moves.map(\.from))
        var result: [Row] = []
        result.reserveCapacity(old.count - gone.count + insertions.count + moves.count)
        for (i, row) in old.enumerated() where !gone.contains(i) { result.append(row) }
        let arriving = (insertions.map { ($0.index, $0.row) } + moves.map { ($0.to, $0.new) })
            .sorted { $0.0 < $1.0 }
        for (index, row) in arriving {
            // An index past the end means a malformed change; appending keeps the
            // mismatch visible to whoever compares the result.
            if index <= result.count { result.insert(row, at: index) } else { result.append(row) }
        }
        return result
    }

    /// One line per index change, `remove at 4: […]`, `insert at 2: […]`,
    /// `move 7 -> 1: […] -> […]`; `(no change)` when empty.
    public func rendered(scheme: Scheme) -> String {
        var lines: [String] = []
        for r in removals { lines.append("remove at \(r.index): " + RowChange.render(r.row, scheme: scheme)) }
        for m in moves {
            lines.append("move \(m.from) -> \(m.to): " + RowChange.render(m.old, scheme: scheme)
                + " -> " + RowChange.render(m.new, scheme: scheme))
        }
        for i in insertions { lines.append("insert at \(i.index): " + RowChange.render(i.row, scheme: scheme)) }
        return lines.isEmpty ? "(no change)" : lines.joined(separator: "\n")
    }
}
