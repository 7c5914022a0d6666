import Relational

/// How a project's kept columns read a join's two-part view (`ColumnView.Dependence`):
/// each from the determining part or the other one, at a store column. Views whose
/// layouts match hold equal rows at equal determining positions.
struct DependentLayout {
    let determining: ColumnStore
    let other: ColumnStore
    let key: [Int]
    let otherKey: [Int]
    /// Per kept column: whether it reads the determining part, and its store column.
    let fromDetermining: [Bool]
    let columns: [Int]

    /// Nil unless the view has a dependence and the kept columns include the determining
    /// part's distinct column (so different determining positions give different rows).
    init?(_ view: ColumnView, keeping kept: [Int]) {
        guard let dependence = view.dependence, view.parts.count == 2, !kept.isEmpty else { return nil }
        let d = dependence.determining
        guard let distinct = view.parts[d].distinctColumn else { return nil }
        let fromDetermining = kept.map { view.partOf[$0] == d }
        let columns = kept.map { view.columnOf[$0] }
        guard zip(fromDetermining, columns).contains(where: { $0 && $1 == distinct }) else { return nil }
        self.fromDetermining = fromDetermining
        self.columns = columns
        determining = view.parts[d].store
        other = view.parts[1 - d].store
        key = dependence.key
        otherKey = dependence.otherKey
    }

    func matches(_ other: DependentLayout) -> Bool {
        key == other.key && otherKey == other.otherKey && fromDetermining == other.fromDetermining
            && columns == other.columns && determining.sharesStorage(with: other.determining)
            && self.other.sharesStorage(with: other.other)
    }
}

/// A project's kept rows as their determining positions (a bit each, `PositionSet`); each
/// new row's positions in both parts are kept too, so that the keys can be spelled out
/// in full when rows start arriving otherwise.
struct DependentKeys {
    let layout: DependentLayout
    private var set: PositionSet
    private var determiningPositions: [Int] = []
    private var otherPositions: [Int] = []

    init(layout: DependentLayout) {
        self.layout = layout
        set = PositionSet(limit: layout.determining.count)
    }

    /// The indexes `k` of the rows whose determining position `determining[k]` is new
    /// (`other[k]`: the row's position in the other part), ascending.
    mutating func insertNew(_ determining: [Int], _ other: [Int]) -> [Int] {
        var keep: [Int] = []
        determining.withUnsafeBufferPointer { set.insertEach($0, fresh: &keep) }
        for k in keep {
            determiningPositions.append(determining[k])
            otherPositions.append(other[k])
        }
        return keep
    }

    /// Calls `body` with every kept row's key encoding (the kept columns, in order).
    func encodeEach(_ body: (KeyEncoder) -> Void) {
        let encoder = KeyEncoder()
        layout.determining.withKeyReader { d in
            layout.other.withKeyReader { o in
                for i in determiningPositions.indices {
                    encoder.reset()
                    for (fromDetermining, column) in zip(layout.fromDetermining, layout.columns) {
                        if fromDetermining {
                            d.encode(row: determiningPositions[i], column: column, into: encoder)
                        } else {
                            o.encode(row: otherPositions[i], column: column, into: encoder)
                        }
                    }
                    body(encoder)
                }
            }
        }
    }
}
