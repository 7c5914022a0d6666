#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary memory for a bulk build, mapped straight from the system and unmapped when
/// the buffer goes, so that a load's scratch space is given back at once instead of
/// staying in the allocator's heap (and in the process's resident memory). Elements must
/// be plain values (no references); the memory starts zeroed.
final class ScratchBuffer<Element: BitwiseCopyable> {
    let base: UnsafeMutablePointer<Element>
    let count: Int
    private let bytes: Int
    private let mapped: Bool

    init(count: Int) {
        self.count = count
        bytes = max(1, count * MemoryLayout<Element>.stride)
        let raw = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if let raw, raw != MAP_FAILED {
            base = raw.bindMemory(to: Element.self, capacity: count)
            mapped = true
        } else {
            // Fall back to the heap (zeroed like the mapping).
            let heap = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryLayout<Element>.alignment)
            heap.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
            base = heap.bindMemory(to: Element.self, capacity: count)
            mapped = false
        }
    }

    deinit {
        if mapped { munmap(UnsafeMutableRawPointer(base), bytes) } else { UnsafeMutableRawPointer(base).deallocate() }
    }

    subscript(i: Int) -> Element {
        @inline(__always) get { base[i] }
        @inline(__always) set { base[i] = newValue }
    }
}
