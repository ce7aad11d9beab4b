#if canImport(Glibc)
import Glibc
#endif

/// The C library's heap.
public enum Memory {
    /// Gives the heap's free pages back to the system (glibc's `malloc_trim(0)`, which since 2.8
    /// releases whole free pages in every arena, not only the top of the main heap); true if any
    /// were, false also where the C library has no `malloc_trim`. The allocator keeps what a
    /// program frees for reuse, so without this a burst of allocations (many clients' queues at
    /// once) sets the resident size for good.
    @discardableResult
    public static func trim() -> Bool {
        guard let trim = mallocTrim else { return false }
        return trim(0) == 1
    }

    /// `malloc_trim`, looked up once: `<malloc.h>` is not part of what Swift imports of the C
    /// library, and this spares a C module for one function.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}
