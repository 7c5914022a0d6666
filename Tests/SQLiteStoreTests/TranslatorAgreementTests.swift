import XCTest
import Relational
@testable import SQLiteStore

/// Property test: random relation expressions over small random relations give the same set
/// from SQLite (one translated statement) as from the reference evaluator over memory tables.
final class TranslatorAgreementTests: XCTestCase {
    static let valuePool: [Value] = [
        nil, nil, 0, 1, 2, -1, -3, 2.0, 1.0, -0.5, 2.5, 9_007_199_254_740_993, 9_007_199_254_740_992.0,
        "", "a", "b", "B", "ab", "it's", "1", .blob([]), .blob([0]), .blob([1, 2]),
    ]
    static let names: [Attribute] = ["a", "b", "c", "d", "e", "f"]
    static let baseSchemes: [[Attribute]] = [["a", "b"], ["a", "b"], ["b", "c"], ["a"], ["a", "b", "c"], ["c", "d"]]

    /// The same expression built twice: over memory tables and over SQLite tables.
    struct Pair {
        let memory: Relation
        let sqlite: Relation
        var scheme: Scheme { memory.scheme }
    }

    final class Generator {
        var rng: SplitMix64
        var bases: [Pair] = []
        var made: [Pair] = []
        let db: SQLiteDatabase
        var literalCount = 0

        init(seed: UInt64) throws {
            rng = SplitMix64(seed: seed)
            db = try SQLiteDatabase.inMemory()
            for (i, attributes) in TranslatorAgreementTests.baseSchemes.enumerated() {
                let s = try Scheme(attributes)
                let name = "t\(i)"
                let indexes: [[Attribute]] = rng.chance(0.5) ? [[rng.pick(attributes)]] : []
                let table = try db.createTable(name, scheme: s, indexes: indexes)
                let memory = try MemoryTable(name: name, scheme: s)
                let count = rng.chance(0.15) ? 0 : Int.random(in: 1...7, using: &rng)
                for _ in 0..<count {
                    let row = Row(attributes.map { _ in rng.pick(TranslatorAgreementTests.valuePool) })
                    try memory.add(row)
                    try table.add(row)
                }
                bases.append(Pair(memory: Relation(source: memory), sqlite: Relation(source: table)))
            }
        }

        func value() -> Value { rng.pick(TranslatorAgreementTests.valuePool) }

        /// A memory literal (shared by both graphs) with the given attributes.
        func literal(_ attributes: [Attribute]) throws -> Pair {
            literalCount += 1
            let s = try Scheme(attributes)
            let table = try MemoryTable(name: "lit\(literalCount)", scheme: s)
            let count = rng.chance(0.2) ? 0 : Int.random(in: 1...3, using: &rng)
            for _ in 0..<count { try table.add(Row(s.attributes.map { _ in value() })) }
            let r = Relation(source: table)
            return Pair(memory: r, sqlite: r)
        }

        func predicate(_ attributes: [Attribute], depth: Int = 0) -> Predicate {
            func term() -> Term {
                if attributes.isEmpty || rng.chance(0.35) { return .value(value()) }
                return .attribute(rng.pick(attributes))
            }
            let roll = Int.random(in: 0..<10, using: &rng)
            if depth < 2 && roll < 3 {
                let parts = (0..<Int.random(in: 0...3, using: &rng)).map { _ in predicate(attributes, depth: depth + 1) }
                return rng.chance(0.5) ? .and(parts) : .or(parts)
            }
            if depth < 2 && roll == 3 { return .not(predicate(attributes, depth: depth + 1)) }
            if roll == 4, let a = attributes.randomElement(using: &rng) {
                // An OR of equalities: the IN-list form, sometimes with null among the values.
                return .or((0..<Int.random(in: 1...4, using: &rng)).map { _ in a *== value() })
            }
            if roll == 5 { return .constant(rng.chance(0.5)) }
            return .comparison(term(), rng.pick(ComparisonOperator.allCases), term())
        }

        /// A relation with exactly `target`'s scheme, built from `source`: keep the common
        /// attributes, cross-join a literal for the missing ones, project to the target.
        func coerce(_ source: Pair, to target: Scheme) throws -> Pair {
            if source.scheme == target { return source }
            let common = source.scheme.attributes.filter(target.contains)
            let missing = target.attributes.filter { !source.scheme.contains($0) }
            var r = Pair(memory: try source.memory.project(common), sqlite: try source.sqlite.project(common))
            if !missing.isEmpty {
                let lit = try literal(missing)
                r = Pair(memory: try r.memory.join(lit.memory), sqlite: try r.sqlite.join(lit.sqlite))
            }
            return r
        }

        /// Narrows a wide relation so schemes stay small.
        func narrow(_ r: Pair) throws -> Pair {
            guard r.scheme.count > 4 else { return r }
            let kept = Array(r.scheme.attributes.shuffled(using: &rng).prefix(3))
            return Pair(memory: try r.memory.project(kept), sqlite: try r.sqlite.project(kept))
        }

        func expression(depth: Int) throws -> Pair {
            if !made.isEmpty && rng.chance(0.15) { return rng.pick(made) }  // a shared node
            if depth == 0 || rng.chance(0.15) {
                return rng.chance(0.8) ? rng.pick(bases) : try literal(Array(rng.pick(TranslatorAgreementTests.baseSchemes)))
            }
            let x = try expression(depth: depth - 1)
            let attributes = x.scheme.attributes
            let result: Pair
            switch Int.random(in: 0..<8, using: &rng) {
            case 0:
                let p = predicate(attributes)
                result = Pair(memory: try x.memory.select(p), sqlite: try x.sqlite.select(p))
            case 1:
                let kept = attributes.filter { _ in rng.chance(0.5) }  // may be empty
                result = Pair(memory: try x.memory.project(kept), sqlite: try x.sqlite.project(kept))
            case 2:
                guard let old = attributes.randomElement(using: &rng),
                      let new = TranslatorAgreementTests.names.filter({ !x.scheme.contains($0) }).randomElement(using: &rng)
                else { return x }
                result = Pair(memory: try x.memory.rename([old: new]), sqlite: try x.sqlite.rename([old: new]))
            case 3, 4, 5:
                // Union / intersection / difference with a same-scheme partner, often sharing x.
                let y: Pair
                if rng.chance(0.4) {
                    let p = predicate(attributes)
                    y = Pair(memory: try x.memory.select(p), sqlite: try x.sqlite.select(p))
                } else {
                    y = try coerce(try expression(depth: depth - 1), to: x.scheme)
                }
                let (l, r) = rng.chance(0.5) ? (x, y) : (y, x)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: result = Pair(memory: try l.memory.union(r.memory), sqlite: try l.sqlite.union(r.sqlite))
                case 1: result = Pair(memory: try l.memory.intersection(r.memory), sqlite: try l.sqlite.intersection(r.sqlite))
                default: result = Pair(memory: try l.memory.difference(r.memory), sqlite: try l.sqlite.difference(r.sqlite))
                }
            case 6:
                // Natural join (a cross product when nothing is shared).
                let y = try expression(depth: depth - 1)
                result = try narrow(Pair(memory: try x.memory.join(y.memory), sqlite: try x.sqlite.join(y.sqlite)))
            default:
                // Equijoin on differently named attributes: rename y's shared attributes away.
                var y = try expression(depth: depth - 1)
                var free = TranslatorAgreementTests.names.filter { !x.scheme.contains($0) && !y.scheme.contains($0) }
                var map: [Attribute: Attribute] = [:]
                for a in y.scheme.attributes where x.scheme.contains(a) {
                    guard let n = free.popLast() else { return x }
                    map[a] = n
                }
                if !map.isEmpty { y = Pair(memory: try y.memory.rename(map), sqlite: try y.sqlite.rename(map)) }
                var pairs: [JoinPair] = []
                if let l = attributes.randomElement(using: &rng), let r = y.scheme.attributes.randomElement(using: &rng) {
                    pairs.append(JoinPair(l, r))
                }
                result = try narrow(Pair(
                    memory: try x.memory.equijoin(y.memory, matching: pairs),
                    sqlite: try x.sqlite.equijoin(y.sqlite, matching: pairs)))
            }
            made.append(result)
            return result
        }
    }

    func testRandomExpressionsAgreeWithReferenceEvaluator() throws {
        var checked = 0
        var nonEmpty = 0
        for seed in 0..<40 as Range<UInt64> {
            let generator = try Generator(seed: 0x5EED_0000 + seed)
            for i in 0..<10 {
                let pair = try generator.expression(depth: 1 + i % 4)
                let expected = Set(try ReferenceEvaluator.evaluate(pair.memory))
                let translation = try SQLTranslator.translate(pair.sqlite)
                let got = try generator.db.evaluate(pair.sqlite)
                XCTAssertEqual(rowSet(got), expected,
                    "seed \(seed) expression \(i)\nSQL:\n\(translation.sql)\nparameters: \(translation.parameters)")
                checked += 1
                if !expected.isEmpty { nonEmpty += 1 }
            }
        }
        XCTAssertEqual(checked, 400)
        XCTAssertGreaterThan(nonEmpty, 150, "the generator should mostly produce non-empty results")
    }

    /// Random filters through SQLiteTable cursors (quoted column names, IN lists, null-aware
    /// ordering) match the compiled predicate on every row.
    func testRandomFiltersAgreeWithCompiledPredicates() throws {
        for seed in 0..<20 as Range<UInt64> {
            let generator = try Generator(seed: 0xF117_0000 + seed)
            for case let source? in generator.bases.map(\.sqlite.source) {
                guard let table = source as? SQLiteTable else { continue }
                let all = try table.allRows()
                for _ in 0..<6 {
                    let p = generator.predicate(table.scheme.attributes)
                    let test = try CompiledPredicate(p, scheme: table.scheme)
                    XCTAssertEqual(rowSet(try table.fetchAll(filter: p)), Set(all.filter { test.matches($0) }), "\(p)")
                }
            }
        }
    }

    /// Sharing: a node used twice is one CTE; tables are read directly, not through a CTE.
    func testSharedNodeIsEmittedOnce() throws {
        let db = try SQLiteDatabase.inMemory()
        let t = Relation(source: try db.createTable("t", scheme: try scheme("a", "b")))
        let shared = try t.select("a" *== 1)
        let q = try shared.union(try shared.project(["a", "b"]))
        let sql = try SQLTranslator.translate(q).sql
        XCTAssertEqual(sql.components(separatedBy: "FROM \"t\"").count - 1, 1, sql)
        XCTAssertEqual(sql.components(separatedBy: " AS (").count - 1, 3, sql)
        XCTAssertEqual(try SQLTranslator.translate(t).sql, "SELECT \"a\", \"b\" FROM \"t\"")
    }

    func testTranslationErrorsAreTyped() throws {
        let db1 = try SQLiteDatabase.inMemory()
        let db2 = try SQLiteDatabase.inMemory()
        let a = Relation(source: try db1.createTable("a", scheme: try scheme("x")))
        let b = Relation(source: try db2.createTable("b", scheme: try scheme("x")))
        assertSQLiteError(["table 'b'", "other tables"], kind: .translation) { try SQLTranslator.translate(try a.union(b)) }
        assertSQLiteError(["belong to database"], kind: .translation) { try db2.evaluate(a) }
        final class Foreign: SourceRelation {
            let scheme: Scheme
            let sourceName = "foreign"
            init(_ s: Scheme) { scheme = s }
            func makeCursor(filter: Predicate?) throws -> any RowCursor { ArrayCursor([]) }
            func canFetchSelectively(_ filter: Predicate) -> Bool { false }
            func estimatedCount(filter: Predicate?) -> Int? { nil }
        }
        let f = Relation(source: Foreign(try scheme("x")))
        assertSQLiteError(["cannot translate source 'foreign'"], kind: .translation) { try db1.evaluate(try a.join(f)) }
    }
}
