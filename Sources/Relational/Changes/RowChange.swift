/// What one transaction did to one relation: the rows it gained and the rows it lost.
///
/// An update is a removal of the old row plus an addition of the new one, as in seed 001.
/// A change delivered to an observer is exact: `added` and `removed` are disjoint,
/// `removed` ⊆ the contents before and `added` ∩ the contents before = ∅.
public struct RowChange: Equatable, Sendable {
    public var added: Set<Row>
    public var removed: Set<Row>

    public init(added: Set<Row> = [], removed: Set<Row> = []) {
        self.added = added
        self.removed = removed
    }

    public static let empty = RowChange()

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }

    /// The exact difference between two states of a relation.
    public static func between(before: Set<Row>, after: Set<Row>) -> RowChange {
        RowChange(added: after.subtracting(before), removed: before.subtracting(after))
    }

    /// `before` with this change applied.
    public func applied(to before: Set<Row>) -> Set<Row> {
        before.subtracting(removed).union(added)
    }

    /// The invariants broken by this change against the contents before it (empty when
    /// the change is exact).
    public func violations(before: Set<Row>) -> [String] {
        var out: [String] = []
        let both = added.intersection(removed)
        if !both.isEmpty { out.append("\(both.count) row(s) both added and removed") }
        let removedAbsent = removed.subtracting(before)
        if !removedAbsent.isEmpty { out.append("\(removedAbsent.count) removed row(s) were not there before") }
        let addedPresent = added.intersection(before)
        if !addedPresent.isEmpty { out.append("\(addedPresent.count) added row(s) were already there") }
        return out
    }

    /// Seed 001's pretty-printed form: `Added` then `Removed`, one `[attr: value, …]` per
    /// row in the value order; an empty change prints `(no change)`.
    public func rendered(scheme: Scheme) -> String {
        var lines: [String] = []
        func section(_ title: String, _ rows: Set<Row>) {
            guard !rows.isEmpty else { return }
            lines.append(title)
            for row in rows.sorted() { lines.append(RowChange.render(row, scheme: scheme)) }
        }
        section("Added", added)
        section("Removed", removed)
        if lines.isEmpty { lines.append("(no change)") }
        return lines.joined(separator: "\n")
    }

    /// `[id: 1, name: Apple]`: text unquoted, as the seed's observers print rows. Control and
    /// bidirectional-override characters show as `\u{…}` escapes, as in `TablePrinter`'s
    /// cells, so a value never moves the cursor or starts a line of its own.
    public static func render(_ row: Row, scheme: Scheme) -> String {
        let cells = zip(scheme.attributes, row.values).map { "\(TablePrinter.cell($0.name)): \(TablePrinter.cell($1.displayText))" }
        return "[" + cells.joined(separator: ", ") + "]"
    }
}
