// The relational operators. Each checks schemes and returns a new lazy relation; errors
// name the attributes involved.

extension Relation {
    public func union(_ other: Relation) throws -> Relation {
        try requireSameScheme(other, "union")
        return Relation(.union(self, other), scheme: scheme)
    }

    public func intersection(_ other: Relation) throws -> Relation {
        try requireSameScheme(other, "intersect")
        return Relation(.intersection(self, other), scheme: scheme)
    }

    public func difference(_ other: Relation) throws -> Relation {
        try requireSameScheme(other, "minus")
        return Relation(.difference(self, other), scheme: scheme)
    }

    public func select(_ predicate: Predicate) throws -> Relation {
        for a in predicate.attributes.sorted() where !scheme.contains(a) {
            throw RelationError.unknownAttribute(a, scheme: scheme, context: "select (\(predicate))")
        }
        return Relation(.select(self, predicate), scheme: scheme)
    }

    public func project(_ attributes: [Attribute]) throws -> Relation {
        for a in attributes where !scheme.contains(a) {
            throw RelationError.unknownAttribute(a, scheme: scheme, context: "project")
        }
        return Relation(.project(self), scheme: try Scheme(attributes))
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
        for (old, _) in map.sorted(by: { $0.key < $1.key }) where !scheme.contains(old) {
            throw RelationError.unknownAttribute(old, scheme: scheme, context: "rename")
        }
        let kept = scheme.attributes.filter { map[$0] == nil }
        let keptSet = Set(kept)
        var renamedFrom: [Attribute: Attribute] = [:]
        for (old, new) in map.sorted(by: { $0.key < $1.key }) {
            if keptSet.contains(new) {
                throw RelationError.renameCollision(from: old, to: new, scheme: scheme)
            }
            if let first = renamedFrom.updateValue(old, forKey: new) {
                throw RelationError.renameMerge(first, old, to: new, scheme: scheme)
            }
        }
        return Relation(.rename(self, map), scheme: try Scheme(kept + map.values))
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
        for p in pairs {
            _ = try scheme.requireIndex(of: p.left, context: "join [\(p)] (left operand)")
            _ = try other.scheme.requireIndex(of: p.right, context: "join [\(p)] (right operand)")
        }
        let merged = Set(pairs.filter { $0.left == $0.right }.map(\.left))
        let shared = Set(scheme.attributes).intersection(other.scheme.attributes)
        let ambiguous = shared.subtracting(merged).sorted()
        if !ambiguous.isEmpty { throw RelationError.ambiguousJoinAttributes(ambiguous) }
        let all = Set(scheme.attributes).union(other.scheme.attributes)
        return Relation(.join(self, other, pairs), scheme: Scheme(uniqueSorted: all.sorted()))
    }

    /// Gives the relation a name for plans and messages; returns self for chaining.
    @discardableResult
    public func named(_ name: String) -> Relation {
        self.name = name
        return self
    }

    private func requireSameScheme(_ other: Relation, _ operation: String) throws {
        if scheme != other.scheme {
            throw RelationError.schemeMismatch(operation: operation, left: scheme, right: other.scheme)
        }
    }
}
