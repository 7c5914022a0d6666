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
        var lines: [String: Int] = [:]
        for (number, line) in try FileSystem.readText(path).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            guard !line.allSatisfy({ $0 == " " || $0 == "\r" }) else { continue }
            let at = "\(path):\(number + 1)"
            guard let colon = line.firstIndex(of: ":") else {
                throw ExperimentFailure.usage("\(at): \(Printable.excerpt(String(line))) is not KEY: VALUE")
            }
            let key = String(line[..<colon])
            // A key twice, or one this file never holds, was read without a word.
            guard ["experiment", "shard", "status", "cells"].contains(key) else {
                throw ExperimentFailure.usage("\(at): unknown key \(Printable.quoted(key)); a run state holds experiment, shard, status and cells")
            }
            guard values[key] == nil else { throw ExperimentFailure.usage("\(at): \(key) is given twice") }
            values[key] = String(line[line.index(after: colon)...]).trimmingEvery(" ").trimmingEvery("\r")
            lines[key] = number + 1
        }
        guard let experiment = values["experiment"], let shardText = values["shard"],
              let status = values["status"].flatMap(Status.init(rawValue:)) else {
            throw ExperimentFailure.usage("\(path) is not a run state file (experiment, shard, status)")
        }
        func at(_ key: String) -> String { "\(path):\(lines[key] ?? 1)" }
        guard !experiment.isEmpty else { throw ExperimentFailure.usage("\(at("experiment")): the experiment's name is empty") }
        guard let shard = Shard.parsed(shardText) else {
            throw ExperimentFailure.usage("\(at("shard")): shard \(Printable.quoted(shardText)): \(Shard.expected)")
        }
        // `cells: x` was read as 0/0, and `-1/4` or `5/4` as they stood.
        let cellsText = values["cells"] ?? "0/0"
        let cells = cellsText.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard cells.count == 2, let done = cells[0], let total = cells[1], done >= 0, done <= total else {
            throw ExperimentFailure.usage("\(at("cells")): cells \(Printable.quoted(cellsText)) is not DONE/TOTAL with 0 <= DONE <= TOTAL")
        }
        return RunState(experiment: experiment, shard: shard, status: status,
                        cellsDone: done, cellsTotal: total)
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
