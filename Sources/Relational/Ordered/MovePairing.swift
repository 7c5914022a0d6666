/// Which removed and added rows of one change are the same row with a new sort key.
///
/// A row is identified by its attributes outside the sort key: a removed row and an added
/// row that agree on all of them, and are the only ones of the change to do so, are one row
/// that moved. Every other removed or added row is a plain removal or insertion. When the
/// sort key covers every attribute there are no moves.
enum MovePairing {
    static func pairs(removed: some Sequence<Row>, added: some Sequence<Row>, ordering: RowOrdering)
        -> (moves: [(old: Row, new: Row)], removed: [Row], added: [Row])
    {
        guard !ordering.restPositions.isEmpty else { return ([], Array(removed), Array(added)) }
        var removedByIdentity: [Row: [Row]] = [:]
        var addedByIdentity: [Row: [Row]] = [:]
        for row in removed { removedByIdentity[row.picking(ordering.restPositions), default: []].append(row) }
        for row in added { addedByIdentity[row.picking(ordering.restPositions), default: []].append(row) }
        var moves: [(old: Row, new: Row)] = []
        var plainRemoved: [Row] = []
        var plainAdded: [Row] = []
        for (identity, olds) in removedByIdentity {
            if olds.count == 1, let news = addedByIdentity[identity], news.count == 1 {
                moves.append((olds[0], news[0]))
                addedByIdentity[identity] = nil
            } else {
                plainRemoved += olds
            }
        }
        for news in addedByIdentity.values { plainAdded += news }
        return (moves, plainRemoved, plainAdded)
    }
}
