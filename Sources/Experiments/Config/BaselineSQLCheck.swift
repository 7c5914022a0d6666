import SQLiteStore
import Workloads

/// A SQLite baseline runs each output of a query as one SQL statement, and SQLite refuses
/// some statements only when it prepares them: too many table references once shared
/// subexpressions are expanded, more than 32,766 bound parameters, an expression tree over
/// 1,000 levels. Those would surface mid-run, after other cells ran; a config is checked
/// here instead, by translating each output exactly as the baseline does (over one-row tables
/// of the same schemes) and having SQLite prepare it with `EXPLAIN`, which runs nothing.
enum BaselineSQLCheck {
    /// nil if SQLite accepts every output of `query`, else why not.
    static func problem(_ query: Query, database: SQLiteDatabase) -> String? {
        for (i, relation) in query.relations.enumerated() {
            do {
                let translation = try SQLTranslator.translate(relation)
                _ = try database.query("EXPLAIN " + translation.sql, translation.parameters)
            } catch {
                let which = query.relations.count > 1 ? "output \(i + 1) of this query" : "this query"
                return "the SQLite baselines cannot run \(which): \(reason(error)); "
                    + "remove the baselines or simplify the query"
            }
        }
        return nil
    }

    /// SQLite's own words for a statement it would not prepare (the statement itself, which
    /// the error quotes, is generated SQL the config's author never wrote).
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? SQLiteError, error.message.hasPrefix("preparing EXPLAIN"),
              let cut = error.message.range(of: ": ", options: .backwards) else { return "\(error)" }
        return "SQLite refuses the statement: " + error.message[cut.upperBound...]
    }
}
