import QueryEngine
import Relational
import SQLiteStore
import Workloads
import XCTest
@testable import QueryEngine
@testable import Verification

/// Every operator (`Operator.Kind.allCases`) against every concern that must handle it:
/// scheme derivation, the reference evaluator, the engine kernel factory and kernels, the
/// filter rewrite for operands, the SQL translation, the query printer and parser, graph
/// equivalence, the random case generator, the plan label, change derivation, the counted
/// propagation mode and reverse propagation. A new operator fails to build
/// (an exhaustive switch somewhere, `sample` below) or fails here until each is done.
final class OperatorCompletenessTests: XCTestCase {
    /// Fresh sources: t(a, b) and u(a, b) overlap; v(a, c) joins t on a (2 matches twice);
    /// e(a, b) are edges with a cycle, a self-loop and null ends.
    struct Fixture {
        let t: Relation
        let u: Relation
        let v: Relation
        let e: Relation
        var catalog: RelationCatalog { RelationCatalog(["t": t, "u": u, "v": v, "e": e]) }

        init() throws {
            t = try Tables.make("t", ["a", "b"], [[1, "x"], [2, "y"], [3, nil], [2, "z"]], indexed: ["a"])
            u = try Tables.make("u", ["a", "b"], [[2, "y"], [3, nil], [4, "w"]], indexed: ["a"])
            v = try Tables.make("v", ["a", "c"], [[1, 10], [2, 20], [2, 21], [5, 50]], indexed: ["a"])
            e = try Tables.make("e", ["a", "b"], [[1, 2], [2, 3], [3, 1], [4, 4], [3, nil], [nil, 5]], indexed: ["a", "b"])
        }
    }

    /// One instance of each operator with its operands; every result holds attribute `a`.
    static func sample(_ kind: Operator.Kind, _ f: Fixture) throws -> (Operator, [Relation]) {
        switch kind {
        case .union: return (.union, [f.t, f.u])
        case .intersection: return (.intersection, [f.t, f.u])
        case .difference: return (.difference, [f.t, f.u])
        case .select: return (.select(Attribute("a") *>= 2), [f.t])
        case .project: return (.project(try Scheme(["a"])), [f.t])
        case .rename: return (.rename(["b": "c"]), [f.t])
        case .join: return (.join([JoinPair("a", "a")]), [f.t, f.v])
        case .closure: return (.closure(from: "a", to: "b"), [f.e])
        }
    }

    /// Whether a filter on the result is rewritten ahead of the run for every operand.
    /// A closure's is not: the pairs from a start value need edges from every value
    /// reachable from it, which `closure-seeding` fetches frontier by frontier instead.
    static func filterRewritesForOperands(_ kind: Operator.Kind) -> Bool {
        switch kind {
        case .union, .intersection, .difference, .select, .project, .rename, .join: return true
        case .closure: return false
        }
    }

    static func build(_ kind: Operator.Kind, _ f: Fixture) throws -> Relation {
        let (op, operands) = try sample(kind, f)
        return try Relation(applying: op, to: operands)
    }

    func testEveryOperatorHasASampleOfItsKind() throws {
        let f = try Fixture()
        for kind in Operator.Kind.allCases {
            XCTAssertEqual(try Self.sample(kind, f).0.kind, kind)
        }
    }

    func testSchemeDerivationChecksOperandsOfEveryOperator() throws {
        let f = try Fixture()
        for kind in Operator.Kind.allCases {
            let (op, operands) = try Self.sample(kind, f)
            let relation = try Relation(applying: op, to: operands)
            XCTAssertEqual(relation.scheme, try op.scheme(over: operands.map(\.scheme)), "\(kind)")
            XCTAssertTrue(relation.scheme.contains("a"), "\(kind)")
            XCTAssertEqual(relation.operands.count, op.operandCount, "\(kind)")
            XCTAssertThrowsError(try op.scheme(over: []), "\(kind) with no operands")
            let tooMany = Array(repeating: f.t.scheme, count: op.operandCount + 1)
            if op.isVariadic {
                XCTAssertNoThrow(try op.scheme(over: tooMany), "\(kind) folds any number of operands")
            } else {
                XCTAssertThrowsError(try op.scheme(over: tooMany), "\(kind) with too many operands")
            }
        }
    }

    /// The reference evaluator, the engine (under every preset, invariants checked) and
    /// SQLite agree on every operator, each result a set, and none is empty.
    func testEvaluatorKernelsAndSQLAgreeOnEveryOperator() throws {
        let db = try SQLiteDatabase.inMemory()
        for kind in Operator.Kind.allCases {
            let relation = try Self.build(kind, try Fixture())
            let reference = try ReferenceEvaluator.evaluate(relation)
            XCTAssertFalse(reference.isEmpty, "\(kind): the sample should produce rows")
            XCTAssertEqual(Set(reference).count, reference.count, "\(kind): reference has duplicates")
            for preset in ["all-on", "all-off"] {
                var engine = try QueryEngine(preset: preset)
                engine.checked = true
                let run = try engine.run([relation])
                XCTAssertEqual(run.results[0].sorted(), reference.sorted(), "\(kind) under \(preset)")
            }
            let sql = try db.evaluate(relation)
            XCTAssertEqual(sql.sorted(), reference.sorted(), "\(kind) in SQLite")
        }
    }

    /// Each operator's kernel comes from the factory, is its own type, and a fresh copy
    /// starts empty.
    func testEveryOperatorHasItsOwnKernel() throws {
        let f = try Fixture()
        var kernelTypes = Set<ObjectIdentifier>()
        for kind in Operator.Kind.allCases {
            let (op, operands) = try Self.sample(kind, f)
            let output = try op.scheme(over: operands.map(\.scheme))
            let kernel = try KernelFactory.make(op, operands: operands.map(\.scheme), output: output)
            kernelTypes.insert(ObjectIdentifier(type(of: kernel)))
            var emitted: [Row] = []
            for (i, operand) in operands.enumerated() {
                emitted += kernel.receive(Batch(try operand.rows()), operand: i).rows
                emitted += kernel.operandCompleted(i).rows
            }
            XCTAssertEqual(emitted.sorted(), try Relation(applying: op, to: operands).rows().sorted(), "\(kind) kernel alone")
            let copy = kernel.freshCopy()
            XCTAssertTrue(type(of: copy) == type(of: kernel), "\(kind)")
            XCTAssertFalse(copy === kernel, "\(kind)")
        }
        XCTAssertEqual(kernelTypes.count, Operator.Kind.allCases.count)
    }

    /// A filter above each operator flows through it to every source (all sample operands
    /// have `a`), and the result is still right.
    func testParentalFiltersFlowThroughEveryOperator() throws {
        let filter: Relational.Predicate = Attribute("a") *== 2
        for kind in Operator.Kind.allCases {
            let f = try Fixture()
            let (op, operands) = try Self.sample(kind, f)
            let query = try Relation(applying: op, to: operands).select(filter)
            let run = try QueryEngine(preset: "all-on").run([query])
            if Self.filterRewritesForOperands(kind) {
                for operand in operands {
                    XCTAssertEqual(op.filter(filter, forOperandWith: operand.scheme)?.attributes, ["a"], "\(kind)")
                }
                XCTAssertEqual(run.counters.filteredFetches, Set(operands.map(ObjectIdentifier.init)).count, "\(kind)")
            } else {
                for operand in operands { XCTAssertNil(op.filter(filter, forOperandWith: operand.scheme), "\(kind)") }
                // Seeded from a == 2, one filtered fetch per frontier: {2} reads (2, 3);
                // {3} reads (3, 1), (3, null); {1, null} reads (1, 2), (null, 5); {5} none.
                XCTAssertEqual(run.counters.filteredFetches, 4, "\(kind)")
                XCTAssertEqual(run.counters.onDemandRoundRows, [1, 2, 2, 0], "\(kind)")
            }
            XCTAssertEqual(run.results[0].sorted(), try query.rows().sorted(), "\(kind)")
        }
    }

    /// Printing and parsing give back the same graph; graph equivalence tells every
    /// operator from every other.
    func testPrinterParserAndEquivalenceHandleEveryOperator() throws {
        let f = try Fixture()
        let all = try Operator.Kind.allCases.map { try Self.build($0, f) }
        for (kind, relation) in zip(Operator.Kind.allCases, all) {
            let text = try QueryPrinter.print([relation], catalog: f.catalog)
            let parsed = try Query.parse(text, catalog: f.catalog)
            XCTAssertTrue(sameGraph(parsed.relations, [relation]), "\(kind): \(text)")
            XCTAssertTrue(sameGraph([try Self.build(kind, f)], [relation]), "\(kind) rebuilt")
            for (other, otherRelation) in zip(Operator.Kind.allCases, all) where other != kind {
                XCTAssertFalse(sameGraph([otherRelation], [relation]), "\(kind) vs \(other)")
            }
        }
    }

    /// Plans label every operator distinctly, as the operator's own label.
    func testPlanLabelsNameEveryOperator() throws {
        let f = try Fixture()
        var labels = Set<String>()
        for kind in Operator.Kind.allCases {
            let (op, _) = try Self.sample(kind, f)
            let graph = Planner.plan([try Self.build(kind, f)])
            XCTAssertEqual(graph[graph.outputNodes[0]].operation.label, op.label, "\(kind)")
            labels.insert(op.label)
        }
        XCTAssertEqual(labels.count, Operator.Kind.allCases.count)
    }

    /// Change propagation: every operator has a derivative rule whose graphs, run by the
    /// engine, give exact changes equal to a requery (random transactions on its operands).
    func testChangeDerivationHandlesEveryOperator() throws {
        for (number, kind) in Operator.Kind.allCases.enumerated() {
            let graph = try CaseGraph(outputs: [try Self.build(kind, try Fixture())])
            var random = VerificationRandom(seed: 3, case: number)
            let transactions = RandomTransactions.make(for: graph, count: 12, &random)
            for preset in ["all-on", "all-off"] {
                let problems = try ChangeCheck.check(graph, transactions: transactions, flags: try QueryEngine(preset: preset).flags)
                XCTAssertEqual(problems, [], "\(kind) under \(preset)")
            }
            // A delta on the first operand's source yields a derived graph for the operator.
            let f = try Fixture()
            let (op, operands) = try Self.sample(kind, f)
            guard let source = operands[0].source as? MemoryTable else { return XCTFail("\(kind)") }
            var delta = SourceDelta(source: source)
            delta.recordInsert(Row([7, "new"]))
            let derivation = try ChangeDerivation(deltas: [delta])
            XCTAssertNotNil(try derivation.added(try Relation(applying: op, to: operands)), "\(kind)")
        }
    }

    /// The counted mode's rule for each operator (closure's is its fallback, one engine run):
    /// exact after every random transaction, and a change to the first operand's source
    /// reaches the operator's observer.
    func testCountedPropagationHandlesEveryOperator() throws {
        for (number, kind) in Operator.Kind.allCases.enumerated() {
            let graph = try CaseGraph(outputs: [try Self.build(kind, try Fixture())])
            var random = VerificationRandom(seed: 5, case: number)
            let transactions = RandomTransactions.make(for: graph, count: 12, &random)
            let problems = try ChangeCheck.check(graph, transactions: transactions,
                                                 flags: try QueryEngine(preset: "all-off").flags, mode: .counted)
            XCTAssertEqual(problems, [], "\(kind)")
            let f = try Fixture()
            let relation = try Self.build(kind, f)
            let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"), mode: .counted)
            try db.observe(relation) { _ in }
            let before = Set(try relation.rows())
            guard let first = relation.operands.first else { return XCTFail("\(kind)") }
            try db.add(rows: [Row([7, "new"])], to: first.operands.first ?? first)
            let change = try XCTUnwrap(db.lastReport).changes[0]
            XCTAssertEqual(change.applied(to: before), Set(try relation.rows()), "\(kind)")
        }
    }

    /// Reverse propagation: an update through each operator either reaches source rows or
    /// is refused with an error naming the operator.
    func testReversePropagationHandlesEveryOperator() throws {
        for kind in Operator.Kind.allCases {
            let f = try Fixture()
            let relation = try Self.build(kind, f)
            let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"))
            let before = try [f.t, f.u, f.v].map { Set(try $0.rows()) }
            do {
                try db.update(relation, where: Attribute("a") *== 2, set: ["a": 9])
                XCTAssertNotEqual(try [f.t, f.u, f.v].map { Set(try $0.rows()) }, before, "\(kind) changed nothing")
            } catch let error as ChangeError {
                XCTAssertTrue(error.message.contains("through \(relation.label)"), "\(kind): \(error)")
                XCTAssertEqual(try [f.t, f.u, f.v].map { Set(try $0.rows()) }, before, "\(kind) refused but changed rows")
            }
        }
    }

    /// The random case generator draws every operator.
    func testRandomCasesUseEveryOperator() {
        XCTAssertEqual(Set(RandomCaseGenerator.drawOrder), Set(Operator.Kind.allCases))
        let fuzzer = Fuzzer(cases: 300, seed: 5)
        var drawn = Set<Operator.Kind>()
        for index in 0..<300 {
            let g = fuzzer.makeCase(index)
            for node in g.nodes { if case let .apply(op, _) = node { drawn.insert(op.kind) } }
        }
        for kind in Operator.Kind.allCases {
            XCTAssertGreaterThan(RandomCaseGenerator.weight(kind), 0, "\(kind)")
            XCTAssertTrue(drawn.contains(kind), "random cases never use \(kind)")
        }
    }
}
