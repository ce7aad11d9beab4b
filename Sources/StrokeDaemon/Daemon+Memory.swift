import NIOCore
import SystemSupport

// Memory that clients' queues let go of goes back to the system (docs/protocol.md, "Slow clients").

extension Daemon {
    /// Bytes clients let go of (`clientReleased`) from which a trim is scheduled.
    static let trimAfterBytes = 1 << 20

    /// A client let go of `bytes`, its queue's and what it had handed to NIO (it was dropped,
    /// the client is gone, or it caught up after holding at least
    /// `ClientConnection.drainReportBytes`). Once that adds
    /// up to `trimAfterBytes`, the heap's free pages go back to the system (`Memory.trim`) after
    /// `closeGrace` and a second: by then the connections disconnected meanwhile are closed and
    /// NIO has let go of their unwritten bytes too, and a burst of disconnects costs one trim.
    /// Without it a daemon that served a flood of clients that never read kept the flood's
    /// resident size (250 MB) after every one of them had gone. Nothing at shutdown (every
    /// client's queue goes then, and so does the process).
    public func clientReleased(_ bytes: Int) {
        guard bytes > 0, !stopping else { return }
        _memory.value.released += bytes
        _memory.value.lastRelease = .now()
        guard _memory.value.released >= Daemon.trimAfterBytes, !_memory.value.trimPending else { return }
        _memory.value.trimPending = true
        loop.scheduleTask(in: trimDelay) { [self] in trimMemory() }
    }

    /// From a queue let go of to its memory being free: its connection is closed `closeGrace`
    /// after it was cut at the latest.
    private var trimDelay: TimeAmount { settings.closeGrace + .seconds(1) }

    private func trimMemory() {
        guard !stopping else { return }
        let start = NIODeadline.now()
        let released = _memory.value.released
        let last = _memory.value.lastRelease
        _memory.value.released = 0
        _memory.value.trimPending = false
        _memory.value.trims += 1
        // Clients let go of less than `trimDelay` ago may not be closed yet, so their memory is
        // freed after this trim: one more follows once they are (found by an adversary: a flood
        // cut over 6 s kept 20 MB that a trim then gave back). During a sustained flood that
        // makes a trim every `trimDelay`; once it ends, one more at most.
        if let last, start - last < trimDelay {
            _memory.value.trimPending = true
            loop.scheduleTask(deadline: last + trimDelay) { [self] in trimMemory() }
        }
        let returned = Memory.trim()
        logger.info(
            "returned free memory to the system after clients' queues were dropped",
            metadata: [
                "queuedBytesReleased": "\(released)", "anyReturned": "\(returned)",
                "ms": "\((NIODeadline.now() - start).nanoseconds / 1_000_000)",
            ])
    }

    /// Trims so far (`clientReleased`).
    var memoryTrims: UInt64 { _memory.value.trims }
}

/// What `clientReleased` counts.
struct MemoryState {
    /// Queued bytes let go of since the last trim, and when the last of them was.
    var released = 0
    var lastRelease: NIODeadline?
    var trimPending = false
    var trims: UInt64 = 0
}
