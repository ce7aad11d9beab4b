import StrokeClient

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's log lines on their way to standard error, written by a thread of their own.
/// Standard error is the journal's socket or a pipe, and either can block (a stalled journald, a
/// pipe nobody reads); the event loop logs, and it must never wait for that: the reader never
/// blocks. Past `limit` bytes waiting, lines are dropped and counted, and the count is written
/// once standard error takes lines again.
final class LogQueue: @unchecked Sendable {
    // @unchecked: every field is read and written under `condition`'s lock.
    static let standardError = LogQueue(fd: 2, limit: 1 << 20)

    private let fd: Int32
    private let limit: Int
    private let condition = ConditionLock()
    private var pending: [UInt8] = []
    private var dropped = 0
    private var writing = false
    private var started = false

    init(fd: Int32, limit: Int) {
        self.fd = fd
        self.limit = limit
    }

    /// Queues `text` (whole lines) for the writer, or counts it as dropped when too much waits.
    func enqueue(_ text: String) {
        condition.lock()
        defer { condition.unlock() }
        guard pending.count + text.utf8.count <= limit else {
            dropped += 1
            return
        }
        pending.append(contentsOf: text.utf8)
        if !started {
            // The thread waits on the condition between lines: no wake-up while nothing is logged.
            started = (try? startThread { [self] in run() }) != nil
            // Every exit (ArgumentParser's for an error status too) writes what is queued first.
            if started { atexit { LogQueue.standardError.flush(seconds: 1) } }
            if !started {
                // No thread to be had: written here, as before this queue.
                let bytes = pending
                pending.removeAll()
                write(bytes)
                return
            }
        }
        condition.signal()
    }

    /// Waits until what is queued has been written, at most `seconds` (the process is about to
    /// exit; a standard error that stays blocked keeps the rest).
    func flush(seconds: Double) {
        var waited = 0.0
        while waited < seconds {
            let idle = condition.withLock { pending.isEmpty && !writing && dropped == 0 }
            if idle { return }
            usleep(10_000)
            waited += 0.01
        }
    }

    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty && dropped == 0 { condition.wait() }
            var chunk = pending
            pending.removeAll(keepingCapacity: true)
            let lost = dropped
            dropped = 0
            writing = true
            condition.unlock()
            // The lines dropped came after those queued before standard error stopped taking them.
            if lost > 0 { chunk += Array("strokes: \(lost) log line(s) dropped: standard error was not taking them\n".utf8) }
            write(chunk)
            condition.withLock { writing = false }
        }
    }

    /// All of `bytes`, blocking; lost if standard error fails (closed, or a full disk behind it).
    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

/// `StreamLogHandler`'s stream for the daemon: its lines go through `LogQueue.standardError`.
struct QueuedStandardError: TextOutputStream, Sendable {
    mutating func write(_ string: String) { LogQueue.standardError.enqueue(string) }
}
