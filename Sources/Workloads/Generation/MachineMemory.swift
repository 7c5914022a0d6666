import FileSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How much memory a dataset may take on this machine, and where that figure came from.
///
/// On Linux it is `MemAvailable` from /proc/meminfo: the kernel's estimate of what can be
/// allocated now without swapping, which leaves out what other processes hold (the total,
/// sysconf's `_SC_PHYS_PAGES`, would promise memory that is not there on a shared machine,
/// and with no swap the result is the OOM killer). A cgroup v2 limit (`memory.max` minus
/// `memory.current`) lowers it when smaller. Elsewhere, or if /proc cannot be read, it is
/// the physical memory from sysconf. `TESTBED_AVAILABLE_MEMORY` (bytes) overrides all of
/// them, for tests and for machines whose figures mislead; set to anything else, it leaves
/// nothing available, so that every dataset is refused naming it.
public struct MachineMemory: Sendable, Equatable {
    public let availableBytes: Int
    /// e.g. "MemAvailable in /proc/meminfo".
    public let source: String

    public init(availableBytes: Int, source: String) {
        self.availableBytes = availableBytes
        self.source = source
    }

    public static func current() -> MachineMemory {
        if let text = getenv("TESTBED_AVAILABLE_MEMORY").map({ String(cString: $0) }) {
            guard let bytes = Int(text), bytes >= 0 else {
                // Set but not a byte count: nothing fits, and the refusal says why, rather
                // than the setting being ignored without a word.
                let digits = !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
                return MachineMemory(availableBytes: 0, source: "TESTBED_AVAILABLE_MEMORY is \(Printable.quoted(text)), "
                    + (digits ? "more bytes than a 64-bit count holds (at most \(Int.max))" : "not a whole number of bytes")
                    + "; give one or unset it")
            }
            return MachineMemory(availableBytes: bytes, source: "TESTBED_AVAILABLE_MEMORY")
        }
        var best: MachineMemory?
        if let text = try? FileSystem.readText("/proc/meminfo"), let kB = field("MemAvailable:", in: text) {
            best = MachineMemory(availableBytes: kB.multipliedReportingOverflow(by: 1024).partialValue, source: "MemAvailable in /proc/meminfo")
        }
        if let limit = cgroupRemaining(), limit < best?.availableBytes ?? Int.max {
            best = MachineMemory(availableBytes: limit, source: "the cgroup's memory.max less memory.current")
        }
        if let best { return best }
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        let total = pages > 0 && size > 0 ? pages.multipliedReportingOverflow(by: size).partialValue : Int.max
        return MachineMemory(availableBytes: total, source: "physical memory (sysconf)")
    }

    /// "12.3 GB" (decimal gigabytes, one decimal) or "512 MB".
    public static func format(_ bytes: Int) -> String {
        if bytes >= 1_000_000_000 {
            let tenths = (bytes / 100_000_000)
            return "\(tenths / 10).\(tenths % 10) GB"
        }
        return "\(max(0, bytes) / 1_000_000) MB"
    }

    private static func field(_ name: String, in text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let number = line.dropFirst(name.count).split(separator: " ").first
            return number.flatMap { Int($0) }
        }
        return nil
    }

    private static func cgroupRemaining() -> Int? {
        guard let maxText = try? FileSystem.readText("/sys/fs/cgroup/memory.max"),
              let limit = Int(maxText.split(separator: "\n").first ?? "") else { return nil }
        let used = (try? FileSystem.readText("/sys/fs/cgroup/memory.current")).flatMap { Int($0.split(separator: "\n").first ?? "") } ?? 0
        return max(0, limit - used)
    }
}
