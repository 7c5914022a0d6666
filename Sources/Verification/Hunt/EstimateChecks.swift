import Relational
import SQLiteStore

/// One broken monotonicity of a source's estimates: `stronger` admits no row `weaker`
/// does not, yet was estimated larger.
public struct EstimateViolation: Sendable {
    public let table: String
    public let backend: String
    public let weaker: String
    public let stronger: String
    public let weakerEstimate: Int
    public let strongerEstimate: Int
}

/// CERT-style checks of cardinality estimates (as in "CERT: Finding Performance Issues in
/// Database Systems Through the Lens of Cardinality Estimation"): for every source, the
/// estimate under a filter is never larger than under a weaker one. Pairs checked per
/// table: `p and q` against `p`, `p` against `p or q`, `p` against no filter, and an IN-set
/// of some of a column's values against one of more of them (the join filters' shape).
/// An estimate of nil (cannot estimate) is not checked. The same pairs check that a source
/// ruling a filter out (`provablyMatchesNothing`) rules out every stronger one.
public enum EstimateChecks {
    public static func check(_ graph: CaseGraph, _ random: inout VerificationRandom, pairs: Int = 4) throws -> [EstimateViolation] {
        let database = try SQLiteDatabase.inMemory()
        var sources: [(String, any SourceRelation)] = []
        for t in graph.tables {
            let memory = try MemoryTable(name: t.name, scheme: t.scheme, indexedAttributes: t.indexedAttributes)
            try memory.add(contentsOf: t.rows)
            sources.append(("memory", memory))
            let table = try database.transaction {
                let table = try database.createTable(t.name, scheme: t.scheme, indexes: t.indexedAttributes.map { [$0] })
                _ = try table.bulkLoad(t.rows, assumeUnique: true)
                return table
            }
            sources.append(("sqlite", table))
        }
        return check(graph.tables, sources: sources, &random, pairs: pairs)
    }

    /// Checks `sources` (two per table, in table order: memory, then SQLite, or any sources
    /// the tests hand in) with filters drawn over each table's scheme and values.
    static func check(
        _ tables: [CaseTable], sources: [(String, any SourceRelation)], _ random: inout VerificationRandom, pairs: Int
    ) -> [EstimateViolation] {
        let perTable = tables.isEmpty ? 0 : sources.count / tables.count
        let domain = RandomValues.Domain(keys: max(4, tables.map(\.rows.count).max() ?? 4))
        var found: [EstimateViolation] = []
        for (t, table) in tables.enumerated() {
            var filters: [(weaker: Predicate?, stronger: Predicate)] = []
            for _ in 0..<pairs {
                let p = RandomPredicate.make(over: table.scheme, domain: domain, &random)
                let q = RandomPredicate.make(over: table.scheme, domain: domain, &random)
                filters += [(p, .and([p, q])), (.or([p, q]), p), (nil, p)]
            }
            if let attribute = random.element(of: table.scheme.attributes), let column = table.scheme.attributes.firstIndex(of: attribute) {
                let values = Array(Set(table.rows.map { $0.values[column] })).sorted()
                let all = random.subset(of: values, sizes: 1...max(1, values.count))
                let some = random.subset(of: all, sizes: 0...max(0, all.count - 1))
                filters.append((.inSet(attributes: [attribute], keys: Set(all.map { Row([$0]) })),
                                .inSet(attributes: [attribute], keys: Set(some.map { Row([$0]) }))))
            }
            for (backend, source) in sources[(perTable * t)..<(perTable * (t + 1))] {
                for (weaker, stronger) in filters {
                    guard let w = source.estimatedCount(filter: weaker), let s = source.estimatedCount(filter: stronger),
                        s > w
                    else { continue }
                    found.append(EstimateViolation(
                        table: table.name, backend: backend, weaker: weaker.map { "\($0)" } ?? "(no filter)",
                        stronger: "\(stronger)", weakerEstimate: w, strongerEstimate: s))
                }
                // Ruling a filter out (`provablyMatchesNothing`) is monotone the same way: a
                // weaker filter ruled out rules out the stronger one. Reported as estimates
                // 0 (ruled out) and 1 (not), backend "<backend> ranges".
                for (weaker, stronger) in filters
                where source.provablyMatchesNothing(weaker ?? .true) && !source.provablyMatchesNothing(stronger) {
                    found.append(EstimateViolation(
                        table: table.name, backend: backend + " ranges", weaker: weaker.map { "\($0)" } ?? "(no filter)",
                        stronger: "\(stronger)", weakerEstimate: 0, strongerEstimate: 1))
                }
            }
        }
        return found
    }
}
