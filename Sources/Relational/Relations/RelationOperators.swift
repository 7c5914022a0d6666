// The relational operators. Each checks schemes and returns a new lazy relation; errors
// name the attributes involved.

extension Relation {
    public func union(_ other: Relation) throws -> Relation {
        try Relation(applying: .union, to: [self, other])
    }

    public func intersection(_ other: Relation) throws -> Relation {
        try Relation(applying: .intersection, to: [self, other])
    }

    public func difference(_ other: Relation) throws -> Relation {
        try Relation(applying: .difference, to: [self, other])
    }

    public func select(_ predicate: Predicate) throws -> Relation {
        try Relation(applying: .select(predicate), to: [self])
    }

    public func project(_ attributes: [Attribute]) throws -> Relation {
        // Unknown attributes are reported before duplicates, in the order given.
        for a in attributes where !scheme.contains(a) {
            throw RelationError.unknownAttribute(a, scheme: scheme, context: "project")
        }
        return try Relation(applying: .project(try Scheme(attributes)), to: [self])
    }

    public func project(dropping attributes: [Attribute]) throws -> Relation {
        for a in attributes where !scheme.contains(a) {
            throw RelationError.unknownAttribute(a, scheme: scheme, context: "project dropping")
        }
        let dropped = Set(attributes)
        return try project(scheme.attributes.filter { !dropped.contains($0) })
    }

    /// Renames `old → new` for each entry; every old name must exist and no new name may
    /// collide with an attribute that is kept.
    public func rename(_ map: [Attribute: Attribute]) throws -> Relation {
        try Relation(applying: .rename(map), to: [self])
    }

    /// Natural join: matches every attribute the two sides share (a cross product when
    /// they share none).
    public func join(_ other: Relation) throws -> Relation {
        let common = Set(scheme.attributes).intersection(other.scheme.attributes)
        return try equijoin(other, matching: common.sorted().map { JoinPair($0, $0) })
    }

    /// Equijoin on attribute pairs. The result has every attribute of both sides; a pair
    /// with the same name on both sides becomes one attribute. Any other attribute the
    /// sides share is ambiguous and an error.
    public func equijoin(_ other: Relation, matching pairs: [JoinPair]) throws -> Relation {
        try Relation(applying: .join(pairs), to: [self, other])
    }

    /// Gives the relation a name for plans and messages; returns self for chaining.
    @discardableResult
    public func named(_ name: String) -> Relation {
        self.name = name
        return self
    }
}
