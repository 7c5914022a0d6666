import Relational

/// Sessions on seed 000's pets (`pets`, `added`, `removed`; the current pets are
/// `pets union added minus removed`): `adopt` adds a new pet to `added`, `remove` adds a
/// current pet to `removed`, `mixed` does either by the weights `adopt` and `remove`.
struct PetsSession {
    static let sessions = ["adopt", "remove", "mixed"]
    static let mixWeights = [("adopt", 1), ("remove", 1)]

    static func parameterNames(_ session: String) -> [String] { session == "mixed" ? mixWeights.map(\.0) : [] }

    struct Settings {
        let mix: SessionWeights
        init(_ p: ShapeParameters) throws { mix = try SessionWeights(PetsSession.mixWeights, from: p) }
    }

    let settings: Settings
    /// Current pets, as rows in scheme order.
    var current = PickList<Row>()
    let scheme: Scheme
    var nextID: Int64 = 1
    /// The last transaction's drawn kind and the kind its statement is.
    private(set) var wanted = ""
    private(set) var made = ""

    init(dataset: Dataset, settings: Settings) throws {
        self.settings = settings
        guard let pets = dataset.table(named: "pets"), let added = dataset.table(named: "added"),
              let removed = dataset.table(named: "removed")
        else { throw WorkloadError.badParameter(name: "session", value: "pets", expected: "a pets dataset") }
        scheme = pets.scheme
        let gone = Set(removed.rows)
        let idIndex = try scheme.requireIndex(of: "id", context: "pets")
        for row in pets.rows + added.rows {
            if let id = sessionID(row.values[idIndex]) { nextID = max(nextID, id + 1) }
            if !gone.contains(row) { current.insert(row) }
        }
    }

    mutating func next(_ session: String, number t: Int, random: inout SplitMix64Generator) -> [String] {
        let kind = session == "mixed" ? settings.mix.pick(&random) : session
        wanted = kind
        made = "nothing"
        if kind == "remove", let row = current.random(&random) {
            current.remove(row)
            made = "remove"
            return ["add removed [\(columns)] { \(SessionText.tuple(row.values)) }"]
        }
        let values: [Attribute: Value] = [
            "id": .integer(nextID),
            "name": .text(Vocabulary.petNames[random.index(below: Vocabulary.petNames.count)]),
            "animal": .text(Vocabulary.animals[random.index(below: Vocabulary.animals.count)]),
        ]
        nextID += 1
        let row = Row(scheme.attributes.map { values[$0] ?? .null })
        current.insert(row)
        made = "adopt"
        return ["add added [\(columns)] { \(SessionText.tuple(row.values)) }"]
    }

    private var columns: String { scheme.attributes.map(\.name).joined(separator: ", ") }
}
