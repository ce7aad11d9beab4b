import SystemSupport
import Testing

struct MemoryTests {
    /// `malloc_trim` is found and gives back the pages of many small blocks freed (blocks below
    /// glibc's mmap threshold stay in the heap when freed: what trimming is for).
    @Test func freedHeapPagesAreGivenBack() {
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<32_768 {
            let p = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 8)
            p.initializeMemory(as: UInt8.self, repeating: 1, count: 1024)
            blocks.append(p)
        }
        // The first half freed, the second kept: free pages below blocks in use, which the heap
        // cannot give back by shrinking its top.
        for p in blocks.prefix(16_384) { p.deallocate() }
        #expect(Memory.trim())
        for p in blocks.dropFirst(16_384) { p.deallocate() }
    }
}
