import FileSupport
import Foundation

/// A confidence interval.
public struct Interval: Equatable, Sendable, Codable {
    public let low: Double
    public let high: Double

    public init(low: Double, high: Double) {
        self.low = low
        self.high = high
    }

    public func contains(_ value: Double) -> Bool { low <= value && value <= high }
}

/// Bootstrap confidence intervals, computed by `scripts/report/bootstrap.py` with
/// `scipy.stats.bootstrap` (percentile method, seeded). The Swift side decides *what* is
/// estimated (which samples make a cell, which cell is a ratio's baseline); the statistics
/// themselves come from scipy, not from code of ours. When python3, numpy or scipy is
/// missing, `compute` says why and callers leave the intervals out.
public enum BootstrapIntervals {
    public static let scriptName = "scripts/report/bootstrap.py"
    public static let confidence = 0.95
    public static let resamples = 9999
    public static let seed: UInt64 = 1

    public struct Ratio: Sendable {
        public let id: String
        public let numerator: [Double]
        public let denominator: [Double]
        public init(id: String, numerator: [Double], denominator: [Double]) {
            self.id = id
            self.numerator = numerator
            self.denominator = denominator
        }
    }

    public struct Answer: Sendable {
        /// By item id; an item whose interval cannot be computed (an empty sample, a zero
        /// median in a ratio's denominator) is absent.
        public let intervals: [String: Interval]
        /// e.g. `scipy 1.17.1, numpy 2.4.6`.
        public let library: String
        public let method: String
    }

    /// Why intervals are missing: the message for the user, naming the fix.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    private struct Request: Encodable {
        struct Median: Encodable { let id: String; let samples: [Double] }
        struct RatioItem: Encodable { let id: String; let numerator: [Double]; let denominator: [Double] }
        let confidence: Double
        let resamples: Int
        let seed: UInt64
        let medians: [Median]
        let ratios: [RatioItem]
    }

    private struct Reply: Decodable {
        let library: String
        let method: String
        let intervals: [String: [Double]]
    }

    /// Intervals for the median of each sample in `medians` (by id) and for each ratio of
    /// medians. Every item is resampled from its own stream, seeded from `seed` and its id.
    public static func compute(
        medians: [(id: String, samples: [Double])], ratios: [Ratio], seed: UInt64 = seed, resamples: Int = resamples
    ) throws -> Answer {
        let request = Request(
            confidence: confidence, resamples: resamples, seed: seed,
            medians: medians.map { Request.Median(id: $0.id, samples: $0.samples) },
            ratios: ratios.map { Request.RatioItem(id: $0.id, numerator: $0.numerator, denominator: $0.denominator) })
        let base = NSTemporaryDirectory() + "testbed-bootstrap-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        let requestPath = base + ".request.json", answerPath = base + ".answer.json"
        defer {
            FileSystem.remove(requestPath)
            FileSystem.remove(answerPath)
        }
        do {
            let data = try JSONEncoder().encode(request)
            try FileSystem.writeText(String(decoding: data, as: UTF8.self), to: requestPath)
        } catch {
            throw Unavailable(description: "cannot write the bootstrap request: \(error)")
        }
        do {
            try PythonScript(name: scriptName).run([requestPath, answerPath])
        } catch let failure as PythonScript.Failure {
            switch failure.status {
            case 3: throw Unavailable(description: "numpy/scipy are not installed; run scripts/setup.sh --plotting (or pip install scipy)")
            case 127: throw Unavailable(description: "python3 is not on PATH; install Python 3, then run scripts/setup.sh --plotting")
            default: throw Unavailable(description: failure.description)
            }
        }
        let reply: Reply
        do {
            reply = try JSONDecoder().decode(Reply.self, from: Data(try FileSystem.readText(answerPath).utf8))
        } catch {
            throw Unavailable(description: "\(scriptName) gave an answer that does not parse: \(error)")
        }
        var intervals: [String: Interval] = [:]
        for (id, pair) in reply.intervals where pair.count == 2 && pair[0].isFinite && pair[1].isFinite && pair[0] <= pair[1] {
            intervals[id] = Interval(low: pair[0], high: pair[1])
        }
        return Answer(intervals: intervals, library: reply.library, method: reply.method)
    }

    /// How many repetitions per cell would likely give a ratio interval that excludes 1,
    /// if the observed ratio is the true one: the interval's width shrinks as 1/√n, so on
    /// a log scale n·(half-width / |log ratio|)². Nil when the ratio is 1 (nothing to resolve).
    public static func repetitionsNeeded(ratio: Double, interval: Interval, repetitions: Int) -> Int? {
        guard ratio > 0, interval.low > 0, interval.high > 0, repetitions > 0 else { return nil }
        let distance = abs(log(ratio))
        guard distance > 1e-9 else { return nil }
        let halfWidth = (log(interval.high) - log(interval.low)) / 2
        let needed = Double(repetitions) * (halfWidth / distance) * (halfWidth / distance)
        guard needed.isFinite else { return nil }
        return max(repetitions + 1, Int(min(needed.rounded(.up), 1e9)))
    }
}
