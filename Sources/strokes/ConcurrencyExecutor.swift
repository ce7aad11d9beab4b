import CConcurrencyHook
import NIOCore
import NIOPosix

/// Runs Swift concurrency's global jobs on NIO's singleton event loops, so that no libdispatch
/// thread pool (and its once-a-second monitor) ever starts (docs/performance.md, "Idle").
enum ConcurrencyExecutor {
    /// The runtime hook's type, as NIO declares it (`PosixSingletons+ConcurrencyTakeOver.swift`).
    private typealias Hook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// Installs the event loops as the executor; call once, from the main thread, before any task.
    /// Returns false when neither way worked (tasks then run on libdispatch).
    static func install() -> Bool {
        // NIO's own installation finds the hook with dlsym: enough where the Swift runtime is a
        // shared library.
        if NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() { return true }
        // Linked statically the hook is hidden from dlsym; the C module reaches it at link time.
        // The same installation as NIO's, with the public executor of the event loop.
        let slot = cconcurrency_enqueue_global_hook()!
        return withUnsafeTemporaryAllocation(of: Hook.self, capacity: 1) { hook in
            hook.baseAddress!.initialize(to: { job, _ in
                MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(ExecutorJob(job))
            })
            slot.pointee = hook.baseAddress!.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) { $0.pointee }
            return slot.pointee != nil
        }
    }
}
