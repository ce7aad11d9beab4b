import NIOCore
import SystemSupport

// Memory that clients' queues let go of goes back to the system (docs/protocol.md, "Slow clients").

extension Daemon {
    /// Queued bytes let go of (`queueReleased`) from which a trim is scheduled.
    static let trimAfterBytes = 1 << 20

    /// A client's queue let go of `bytes` (it was dropped, the client is gone, or it caught up
    /// after holding at least `ClientConnection.drainReportBytes`). Once that adds
    /// up to `trimAfterBytes`, the heap's free pages go back to the system (`Memory.trim`) after
    /// `closeGrace` and a second: by then the connections disconnected meanwhile are closed and
    /// NIO has let go of their unwritten bytes too, and a burst of disconnects costs one trim.
    /// Without it a daemon that served a flood of clients that never read kept the flood's
    /// resident size (250 MB) after every one of them had gone. Nothing at shutdown (every
    /// client's queue goes then, and so does the process).
    func queueReleased(_ bytes: Int) {
        guard bytes > 0, !stopping else { return }
        _memory.value.released += bytes
        guard _memory.value.released >= Daemon.trimAfterBytes, !_memory.value.trimPending else { return }
        _memory.value.trimPending = true
        loop.scheduleTask(in: settings.closeGrace + .seconds(1)) { [self] in trimMemory() }
    }

    private func trimMemory() {
        let released = _memory.value.released
        _memory.value = MemoryState(trims: _memory.value.trims + 1)
        let start = NIODeadline.now()
        let returned = Memory.trim()
        logger.info(
            "returned free memory to the system after clients' queues were dropped",
            metadata: [
                "queuedBytesReleased": "\(released)", "anyReturned": "\(returned)",
                "ms": "\((NIODeadline.now() - start).nanoseconds / 1_000_000)",
            ])
    }

    /// Trims so far (`queueReleased`).
    var memoryTrims: UInt64 { _memory.value.trims }
}

/// What `queueReleased` counts.
struct MemoryState {
    /// Queued bytes let go of since the last trim.
    var released = 0
    var trimPending = false
    var trims: UInt64 = 0
}
