import QueryEngine
import Relational

/// A parsed change script (`.changes`): transactions of `add`, `delete` and `update`
/// statements. A statement outside `begin`/`commit` is a transaction of its own.
///
///     begin
///     add documents [id, name, parent_id] { (1001, "New chapter", 3) }
///     delete documents where (id == 5)
///     update documents set [name = "Cherry"] where (id == 4)
///     commit
///     update selected_documents set [id = 3]
public struct ChangeScript {
    public let file: String
    public let transactions: [ChangeTransaction]

    /// Parses `text`; statements may name the relations of `targets` (source tables, and
    /// a query's `let` and named `output` relations for updates and deletes).
    public static func parse(_ text: String, targets: RelationCatalog, file: String = "<changes>") throws -> ChangeScript {
        var parser = try QueryParser(text: text, file: file, catalog: targets)
        return ChangeScript(file: file, transactions: try parser.parseChangeScript())
    }

    /// The relations a script may change: the tables, plus the query's `let` bindings and
    /// named outputs (a name the query binds wins over a table of the same name).
    public static func targets(tables: RelationCatalog, query: Query) -> RelationCatalog {
        var out = tables
        for (name, relation) in query.bindings { out.add(relation, as: name) }
        for o in query.outputs { if let name = o.name { out.add(o.relation, as: name) } }
        return out
    }

    /// Applies one transaction to `database` and commits it. A refused statement rolls the
    /// transaction back and is reported as a `QueryError` at the statement.
    @discardableResult
    public func apply(_ transaction: ChangeTransaction, to database: TransactionalDatabase) throws -> PropagationReport {
        try database.begin()
        for s in transaction.statements {
            do {
                try s.apply(to: database)
            } catch let e as ChangeError {
                throw QueryError(file: file, position: s.position, message: e.message)
            } catch let e as RelationError {
                throw QueryError(file: file, position: s.position, message: e.description)
            }
        }
        return try database.commit()
    }
}

/// One transaction: its statements in order, and where it starts (`begin`, or the lone
/// statement).
public struct ChangeTransaction {
    public let position: SourcePosition
    public let statements: [ChangeStatement]
}

public struct ChangeStatement {
    public enum Kind {
        /// Rows in the target's scheme order.
        case add([Row])
        case delete(where: Predicate)
        case update(set: [Attribute: Value], where: Predicate)
    }

    public let kind: Kind
    public let target: Relation
    public let targetName: String
    public let position: SourcePosition

    func apply(to database: TransactionalDatabase) throws {
        switch kind {
        case let .add(rows): try database.add(rows: rows, to: target)
        case let .delete(predicate): try database.delete(from: target, where: predicate, named: targetName)
        case let .update(values, predicate): try database.update(target, where: predicate, set: values, named: targetName)
        }
    }

    /// The number of rows the statement names (adds) or 1 (deletes and updates), for the
    /// `changes_in` column.
    public var size: Int {
        if case let .add(rows) = kind { return rows.count }
        return 1
    }
}
