import Relational

/// A source with a scheme and no rows, for checking that a graph type-checks.
final class EmptySource: SourceRelation {
    let scheme: Scheme
    var sourceName: String { "empty" }
    init(scheme: Scheme) { self.scheme = scheme }
    func makeCursor(filter: Predicate?) throws -> any RowCursor { ArrayCursor([]) }
    func canFetchSelectively(_ filter: Predicate) -> Bool { true }
    func estimatedCount(filter: Predicate?) -> Int? { 0 }
}
