import Foundation
import Testing

@testable import strokes

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's log goes through `LogQueue`: a standard error nobody reads (a full pipe, a stalled
/// journal) blocked the event loop in `write` (tenth black-box round).
@Suite(.timeLimit(.minutes(1))) struct LogQueueTests {
    @Test func aBlockedDescriptorNeverBlocksTheLoggerAndDropsAreCounted() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let queue = LogQueue(fd: ends[1], limit: 4096)
        let line = String(repeating: "x", count: 99) + "\n"
        // A pipe holds 64 KiB: far more than that is queued, nobody reading. This returns.
        for _ in 0..<2000 { queue.enqueue(line) }
        // Reading lets the writer on: the pipe's worth and the queue's, then the count of the rest.
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let flags = fcntl(ends[0], F_GETFL)
        _ = fcntl(ends[0], F_SETFL, flags | O_NONBLOCK)
        let notice = Array("log line(s) dropped: standard error was not taking them\n".utf8)
        for _ in 0..<2000 where !received.suffix(notice.count).elementsEqual(notice) {
            let n = read(ends[0], &chunk, chunk.count)
            if n > 0 { received += chunk[0..<n] } else { usleep(5000) }
        }
        queue.flush(seconds: 1)
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasPrefix(line))
        #expect(text.contains("log line(s) dropped: standard error was not taking them\n"), "\(text.suffix(200))")
        #expect(received.count < 2000 * 100, "some were dropped")
    }
}
