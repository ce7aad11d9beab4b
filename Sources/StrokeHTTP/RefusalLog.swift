import Logging
import NIOCore

/// Requests the HTTP side refuses (401, 403, 503): each logged at debug level, and the 1st, 2nd,
/// 4th, 8th … at warning, so a flood (a port scan, a misconfigured page) is seen without being
/// echoed line for line. Confined to the daemon's event loop.
final class RefusalLog: Sendable {
    private let count: NIOLoopBoundBox<UInt64>
    private let logger: Logger

    init(loop: EventLoop, logger: Logger) {
        count = .makeBoxSendingValue(0, eventLoop: loop)
        self.logger = logger
    }

    /// The request's path only: its query may hold a token (`?token=`), which must not reach the log.
    func note(_ status: HTTPStatusCode, _ reason: String, uri: String, peer: SocketAddress?) {
        count.value += 1
        let n = count.value
        let path = uri.prefix { $0 != "?" }.prefix(80)
        let metadata: Logger.Metadata = [
            "status": "\(status.code)", "path": "\(path)", "peer": "\(peer.map { "\($0)" } ?? "unknown")",
            "refusedSoFar": "\(n)",
        ]
        logger.log(level: n & (n - 1) == 0 ? .warning : .debug, "HTTP request refused: \(reason)", metadata: metadata)
    }

    /// A status code, without NIOHTTP1 in this file's interface.
    struct HTTPStatusCode: Sendable {
        var code: UInt
    }
}
