/// What `ChangeDerivation` keeps from one transaction to the next, so that a transaction of
/// the same shape derives the very same relation objects and an engine can reuse whatever
/// it prepared for them.
///
/// Two things make a derivative graph the same object again:
/// - **Delta tables are slots.** Each changed source's added and removed rows, and each
///   materialized rule's result, live in one memory table per slot (a source and a sign, or
///   the rule's graph) whose rows are replaced on every transaction (`MemoryTable.removeAll`,
///   then the new rows): the graphs keep reading the same table object. An empty delta is
///   no table at all (nil), as without a cache, so which slots are non-empty is part of the
///   shape.
/// - **Rules are hash-consed.** A relation's rule is looked up by the relation and the
///   identities of its operands' derived relations (added, removed, before); built from the
///   same slots, they are the same objects, so the rule is the one built before.
///
/// A shape is thus: the observed relations, which sources changed with which signs, and
/// which materialized rules came out empty. Everything is kept alive here, so identities are
/// never reused; `removeAll` forgets it (when the observed relations change). A slot's
/// table holds the rows of the last transaction that bound it, until the next one does.
public final class DerivationCache {
    struct Key: Hashable {
        let relation: ObjectIdentifier
        let operands: [ObjectIdentifier?]
    }

    struct Entry {
        /// Kept so that the key's identity stays this relation's.
        let relation: Relation
        let parts: DerivedParts
    }

    enum Slot: Hashable {
        case sourceAdded(ObjectIdentifier)
        case sourceRemoved(ObjectIdentifier)
        case result(ObjectIdentifier)
    }

    private(set) var entries: [Key: Entry] = [:]
    private var tables: [Slot: (table: MemoryTable, relation: Relation, owner: AnyObject?)] = [:]
    /// Changed sources' states before the transaction (`(after − added) ∪ removed`), by
    /// identity: what a rule worth running alone reads.
    private var beforeStates: Set<ObjectIdentifier> = []

    public init() {}

    /// Rules derived so far (each a relation's added, removed and before graphs for one
    /// shape of its operands' changes).
    public var rulesDerived: Int { entries.count }

    /// Forgets every rule and slot.
    public func removeAll() {
        entries = [:]
        tables = [:]
        beforeStates = []
    }

    func entry(_ key: Key) -> DerivedParts? { entries[key]?.parts }

    func store(_ parts: DerivedParts, for relation: Relation, key: Key) {
        entries[key] = Entry(relation: relation, parts: parts)
    }

    /// The slot's table, now holding exactly `rows` (indexed on every attribute, so any
    /// filter is a lookup); nil, and the slot untouched, when there are no rows. `owner` is
    /// kept alive with the slot when the slot is named by its identity.
    func bind(_ slot: Slot, name: String, scheme: Scheme, rows: [Row], owner: AnyObject? = nil) throws -> Relation? {
        guard !rows.isEmpty else { return nil }
        if let existing = tables[slot] {
            existing.table.removeAll()
            try existing.table.add(contentsOf: rows)
            return existing.relation
        }
        let table = try MemoryTable(name: name, scheme: scheme, indexedAttributes: scheme.attributes)
        try table.add(contentsOf: rows)
        let relation = Relation(source: table)
        tables[slot] = (table, relation, owner)
        return relation
    }

    /// Records `relation` as a changed source's state before the transaction.
    func noteBeforeState(_ relation: Relation) {
        beforeStates.insert(ObjectIdentifier(relation))
    }

    /// Whether `graph` reads a changed source's state before the transaction.
    func readsBeforeState(_ graph: Relation) -> Bool {
        var seen: Set<ObjectIdentifier> = []
        func reads(_ r: Relation) -> Bool {
            guard seen.insert(ObjectIdentifier(r)).inserted else { return false }
            if beforeStates.contains(ObjectIdentifier(r)) { return true }
            switch r.definition {
            case .source: return false
            case let .apply(_, operands): return operands.contains(where: reads)
            }
        }
        return reads(graph)
    }

    /// The table holding the rows of a materialized rule `graph` for this transaction (nil
    /// when there are none): the same table object every time `graph` is materialized.
    public func resultTable(for graph: Relation, rows: [Row]) throws -> Relation? {
        try bind(.result(ObjectIdentifier(graph)), name: graph.name ?? "delta", scheme: graph.scheme,
                 rows: rows, owner: graph)
    }
}

/// One relation's derivative graphs: the rows it gains (nil: none), the rows it loses (nil:
/// none), and the relation as it was before the transaction.
struct DerivedParts {
    let added: Relation?
    let removed: Relation?
    let before: Relation
    /// Whether the added or removed graph reads a changed source's state before the
    /// transaction (then it is run alone, see `ChangeDerivation`); true until checked.
    var readsBeforeState = true

    /// These parts with `readsBeforeState` checked by `reads` on each graph.
    func markingBeforeReads(_ reads: (Relation) -> Bool) -> DerivedParts {
        var out = self
        out.readsBeforeState = [added, removed].contains { $0.map(reads) ?? false }
        return out
    }

    /// The identities a parent's rule is built from.
    var identities: [ObjectIdentifier?] {
        [added.map(ObjectIdentifier.init), removed.map(ObjectIdentifier.init), ObjectIdentifier(before)]
    }
}
