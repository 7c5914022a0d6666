/// A source whose rows can be changed in place. The transaction layer decides *which* rows
/// go and come (and checks them first); a mutable source only stores the result.
///
/// Contract: `insertRows` receives rows of the source's scheme that are not present and
/// that share no `primaryKey` value with a row that stays; `removeRows` receives rows that
/// are present. Either may throw only for storage failures, and then must leave the
/// source as it was.
public protocol MutableSource: SourceRelation {
    /// The attributes no two rows may share, as the storage declares them (SQLite's
    /// `PRIMARY KEY`, a property-list relation's `primaryKey`); empty when only whole rows
    /// are distinct. The transaction layer refuses a write that would break it before the
    /// source is touched, so every backend refuses a key clash alike.
    var primaryKey: [Attribute] { get }
    func insertRows(_ rows: [Row]) throws
    func removeRows(_ rows: [Row]) throws
}

extension MutableSource {
    public var primaryKey: [Attribute] { [] }
}

extension MemoryTable: MutableSource {
    public func insertRows(_ rows: [Row]) throws {
        try add(contentsOf: rows)
    }

    public func removeRows(_ rows: [Row]) throws {
        remove(rows: rows)
    }
}

extension Predicate {
    /// True exactly for the given rows of `scheme` (each attribute compared with `==`,
    /// which holds for `null == null`). A filter the sources' indexes can answer.
    public static func matchingRows<S: Sequence>(_ rows: S, scheme: Scheme) -> Predicate where S.Element == Row {
        .any(rows.map { row in
            .all(zip(scheme.attributes, row.values).map { .comparison(.attribute($0), .equal, .value($1)) })
        })
    }

    /// True for rows whose `attributes` take one of the given value tuples.
    public static func matchingValues(_ tuples: [[Value]], on attributes: [Attribute]) -> Predicate {
        .any(tuples.map { values in
            .all(zip(attributes, values).map { .comparison(.attribute($0), .equal, .value($1)) })
        })
    }
}
