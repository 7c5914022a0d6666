import QueryEngine

/// A one-line progress bar with ETA on standard error. Work is weighted by rows × runs per
/// cell, so the estimate is not fooled by many fast small cells before the large ones.
struct ProgressBar {
    let console: Console
    let totalWork: Double
    private var doneWork = 0.0
    private var doneCells = 0
    let totalCells: Int
    private let start = ContinuousClock.now
    private var lastDraw = ContinuousClock.now - .seconds(1)

    init(console: Console, totalCells: Int, totalWork: Double) {
        self.console = console
        self.totalCells = totalCells
        self.totalWork = max(totalWork, 1)
    }

    mutating func starting(_ label: String) { draw(label, force: true) }

    mutating func finished(work: Double) {
        doneWork += work
        doneCells += 1
        draw("", force: doneCells == totalCells)
    }

    mutating func draw(_ label: String, force: Bool) {
        guard console.showProgress else { return }
        let now = ContinuousClock.now
        guard force || now - lastDraw > .milliseconds(200) else { return }
        lastDraw = now
        let fraction = min(doneWork / totalWork, 1)
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let elapsed = (now - start).microseconds / 1_000_000
        let eta = doneWork > 0 ? Self.clock(elapsed / doneWork * (totalWork - doneWork)) : "?"
        var line = "[\(bar)] \(doneCells)/\(totalCells) cells \(Int(fraction * 100))% elapsed \(Self.clock(elapsed)) ETA \(eta)"
        if !label.isEmpty { line += "  " + label }
        if line.count > 118 { line = String(line.prefix(118)) }
        console.err("\r\u{1B}[K" + line)
    }

    func clear() {
        if console.showProgress { console.err("\r\u{1B}[K") }
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600)h\(twoDigits((s % 3600) / 60))m" : "\(s / 60):\(twoDigits(s % 60))"
    }
}

private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
