// A driver for profiling one change-propagation scenario: generates N documents once, then
// applies its transactions inside `changeProfileTransactions`, a symbol callgrind can be told
// to collect in alone (`--toggle-collect='*changeProfileTransactions*'`), so generation and
// set-up stay out of the profile.
//
//   valgrind --tool=callgrind --toggle-collect='*changeProfileTransactions*' \
//     .build/release/testbed-bench changes-profile --scenario selection --transactions 200   (--no-keys: no key declared on documents.id)
import QueryEngine
import Relational
import Workloads

let changeProfileSuite = BenchmarkSuite(
    name: "changes-profile",
    summary: "driver for callgrind: one change scenario (--scenario selection|rename|bulk) on N documents (--rows, --transactions, --preset, --mode)",
    run: runChangeProfileDriver,
    includedInAll: false
)

private func runChangeProfileDriver(_ arguments: [String]) throws {
    var rows = 10_000
    var transactions = 200
    var preset = "all-on"
    var scenario = "selection"
    var mode = TransactionalDatabase.Mode.incremental
    var declareKeys = true
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        func value() throws -> String {
            guard let v = rest.popFirst() else { throw BenchmarkError.usage("changes-profile: \(argument) needs a value") }
            return v
        }
        switch argument {
        case "--rows":
            guard let n = Int(try value()), Shape.rowRange.contains(n) else {
                throw BenchmarkError.usage("changes-profile: --rows needs a count in \(Shape.rowRange)")
            }
            rows = n
        case "--transactions":
            guard let n = Int(try value()), n > 0 else { throw BenchmarkError.usage("changes-profile: --transactions needs a positive count") }
            transactions = n
        case "--preset": preset = try value()
        case "--no-keys": declareKeys = false
        case "--scenario":
            scenario = try value()
            guard ["selection", "rename", "bulk"].contains(scenario) else {
                throw BenchmarkError.usage("changes-profile: --scenario is selection, rename or bulk, not '\(scenario)'")
            }
        case "--mode":
            let text = try value()
            guard let m = TransactionalDatabase.Mode(rawValue: text) else {
                throw BenchmarkError.usage("changes-profile: unknown --mode '\(text)'")
            }
            mode = m
        default:
            throw BenchmarkError.usage("changes-profile: unknown argument '\(argument)' "
                + "(known: --rows N, --transactions N, --preset P, --scenario selection|rename|bulk, --mode M, --no-keys)")
        }
    }
    let tables = try Shape.documents.generate(rows: rows, seed: 42).memoryRelations()
    let query: Query
    let texts: [String]
    if scenario == "selection" {
        query = try QueryCatalog.find("selected-document-parent").parse(catalog: tables)
        texts = [rows / 2, rows * 3 / 4].map { "update selected_documents set [id = \($0)]" }
    } else {
        let named = try Query.parse("""
            let parents = documents project [id, name] rename [id -> parent_id, name -> parent_name]
            output named = documents join parents
            """, catalog: tables, file: "<changes-profile>")
        let id = rows / 8 + 1
        if scenario == "rename" {
            query = named
            texts = ["Renamed A", "Renamed B"].map { "update documents set [name = \"\($0)\"] where (id == \(id))" }
        } else {
            // As `changes`' bulk scenario: a subtree of 1,000 documents under `id` added, then
            // deleted, observed through both queries.
            let seed = try QueryCatalog.find("selected-document-parent").parse(catalog: tables)
            query = Query(outputs: seed.outputs + named.outputs)
            let top = rows + 1
            let tuples = ["(\(top), \"Bulk parent\", \(id))"] + ((top + 1)...(top + 999)).map { "(\($0), \"Bulk \($0)\", \(top))" }
            texts = ["add documents [id, name, parent_id] { \(tuples.joined(separator: ", ")) }",
                     "begin\ndelete documents where (parent_id == \(top))\ndelete documents where (id == \(top))\ncommit"]
        }
    }
    let targets = ChangeScript.targets(tables: tables, query: query)
    let scripts = try texts.map { try ChangeScript.parse($0, targets: targets, file: "<changes-profile>") }
    let db = TransactionalDatabase(engine: try QueryEngine(preset: preset), mode: mode)
    if declareKeys, let documents = tables["documents"] { try db.declareKey(["id"], of: documents) }  // as `changes` does
    for relation in query.relations { try db.observe(relation) { _ in } }
    for s in scripts { _ = try s.apply(s.transactions[0], to: db) }  // warm-up
    let (micros, rowsRead, deltaRows) = try changeProfileTransactions(scripts, on: db, count: transactions)
    print("changes-profile \(scenario) \(rows) \(preset) \(mode.rawValue): \(transactions) transactions, "
        + "propagation mean \(Int(micros / Double(transactions))) µs, \(rowsRead / transactions) rows read per transaction "
        + "(\(deltaRows / transactions) of them delta-table rows)")
}

@inline(never)
func changeProfileTransactions(_ scripts: [ChangeScript], on db: TransactionalDatabase, count: Int) throws -> (Double, Int, Int) {
    var micros = 0.0
    var rowsRead = 0
    var deltaRows = 0
    for i in 0..<count {
        let s = scripts[i % scripts.count]
        let r = try s.apply(s.transactions[0], to: db)
        micros += r.totalMicroseconds
        rowsRead += r.counters.sourceRowsRead
        deltaRows += r.deltaRowsRead
    }
    return (micros, rowsRead, deltaRows)
}
