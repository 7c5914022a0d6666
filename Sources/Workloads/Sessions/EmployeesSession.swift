import Relational

/// Sessions on seed 001's `employees(id, name)` and `equipment(owner_id, serial_number,
/// comment)`: `hire` (a new employee), `assign` (a new piece of equipment for an employee),
/// `unassign` (a piece of equipment goes), `rename` (an employee's name changes), and
/// `mixed` by the weights `hire`, `assign`, `unassign`, `rename`.
struct EmployeesSession {
    static let sessions = ["hire", "assign", "unassign", "rename", "mixed"]
    static let mixWeights = [("hire", 1), ("assign", 2), ("unassign", 2), ("rename", 2)]

    static func parameterNames(_ session: String) -> [String] { session == "mixed" ? mixWeights.map(\.0) : [] }

    struct Settings {
        let mix: SessionWeights
        init(_ p: ShapeParameters) throws { mix = try SessionWeights(EmployeesSession.mixWeights, from: p) }
    }

    let settings: Settings
    var employees = PickList<Int64>()
    /// Serial numbers of the equipment, which identify it.
    var serials = PickList<Value>()
    var nextID: Int64 = 1
    /// The last transaction's drawn kind and the kind its statement is.
    private(set) var wanted = ""
    private(set) var made = ""

    init(dataset: Dataset, settings: Settings) throws {
        self.settings = settings
        guard let people = dataset.table(named: "employees"), let equipment = dataset.table(named: "equipment")
        else { throw WorkloadError.badParameter(name: "session", value: "employees", expected: "an employees dataset") }
        for v in try people.column("id") {
            guard let id = sessionID(v) else { continue }
            employees.insert(id)
            nextID = max(nextID, id + 1)
        }
        // Only serials that name one row are deleted by serial.
        var seen: [Value: Int] = [:]
        for s in try equipment.column("serial_number") { seen[s, default: 0] += 1 }
        for s in try equipment.column("serial_number") where seen[s] == 1 { serials.insert(s) }
    }

    mutating func next(_ session: String, number t: Int, random: inout SplitMix64Generator) -> [String] {
        let kind = session == "mixed" ? settings.mix.pick(&random) : session
        wanted = kind
        made = kind
        switch kind {
        case "assign":
            guard let owner = employees.random(&random) else { return hire(&random) }
            let serial = Value.text("SN-T\(t)")
            serials.insert(serial)
            let comment = Vocabulary.equipmentKinds[random.index(below: Vocabulary.equipmentKinds.count)]
            return ["add equipment [owner_id, serial_number, comment] { (\(owner), \(serial), \(SessionText.literal(comment))) }"]
        case "unassign":
            guard let serial = serials.random(&random) else { return hire(&random) }
            serials.remove(serial)
            return ["delete equipment where (serial_number == \(serial))"]
        case "rename":
            guard let id = employees.random(&random) else { return hire(&random) }
            return ["update employees set [name = \(SessionText.literal("Renamed \(t)"))] where (id == \(id))"]
        default:
            return hire(&random)
        }
    }

    private mutating func hire(_ random: inout SplitMix64Generator) -> [String] {
        let id = nextID
        nextID += 1
        employees.insert(id)
        made = "hire"
        let first = Vocabulary.firstNames[random.index(below: Vocabulary.firstNames.count)]
        let last = Vocabulary.lastNames[random.index(below: Vocabulary.lastNames.count)]
        return ["add employees [id, name] { (\(id), \(SessionText.literal("\(first) \(last)"))) }"]
    }
}
