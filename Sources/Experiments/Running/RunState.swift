import FileSupport

/// `run.txt` of an output directory: which shard it holds and whether it is complete.
/// `--resume` and `merge` read it back.
public struct RunState: Equatable {
    public static let fileName = "run.txt"

    /// `finishing`: every cell ran, but the plans, summary or plots are not yet all written
    /// (a run that failed or was stopped there is `finishing` or `interrupted`, and
    /// `--resume` writes them). `failed`: an error stopped the cells (a full disk, an engine
    /// that failed); the completed ones are kept for `--resume`.
    public enum Status: String { case running, finishing, interrupted, failed, complete, incomplete }

    public var experiment: String
    public var shard: Shard
    public var status: Status
    public var cellsDone: Int
    public var cellsTotal: Int

    public var text: String {
        """
        experiment: \(experiment)
        shard: \(shard)
        status: \(status.rawValue)
        cells: \(cellsDone)/\(cellsTotal)

        """
    }

    public init(experiment: String, shard: Shard, status: Status, cellsDone: Int, cellsTotal: Int) {
        self.experiment = experiment
        self.shard = shard
        self.status = status
        self.cellsDone = cellsDone
        self.cellsTotal = cellsTotal
    }

    public static func read(directory: String) throws -> RunState {
        let path = FileSystem.join(directory, fileName)
        var values: [String: String] = [:]
        for line in try FileSystem.readText(path).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            values[String(line[..<colon])] = String(line[line.index(after: colon)...]).trimmingEvery(" ")
        }
        guard let experiment = values["experiment"], let shardText = values["shard"],
              let status = values["status"].flatMap(Status.init(rawValue:)) else {
            throw ExperimentFailure.usage("\(path) is not a run state file (experiment, shard, status)")
        }
        let cells = (values["cells"] ?? "0/0").split(separator: "/").compactMap { Int($0) }
        return RunState(experiment: experiment, shard: try Shard(parsing: shardText), status: status,
                        cellsDone: cells.first ?? 0, cellsTotal: cells.last ?? 0)
    }
}

extension String {
    func trimmingEvery(_ character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s = s.dropFirst() }
        while s.last == character { s = s.dropLast() }
        return String(s)
    }
}
