// FoundationEssentials has JSONDecoder, Data, ProcessInfo and FileManager without the rest of
// Foundation (and its ICU).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrokeProtocol

/// A client of the strokes daemon (docs/protocol.md): typed requests, and subscriptions that
/// reconnect and resume.
///
/// ```
/// let client = try await StrokeClient.connect(path: "/run/strokes/strokes.sock")
/// defer { client.close() }
/// print(try await client.devices().map(\.name))
/// for try await event in client.subscribe() {
///     switch event {
///     case .message(.stroke(let e)) where e.kind == .began: print("down", e.stroke, e.point.x, e.point.y)
///     case .message(.stroke(let e)) where e.kind == .ended: print("up", e.stroke)
///     case .gap(let gap): print("missed what followed", gap.lastSeq ?? 0, "(\(gap.reason))")
///     default: break
///     }
/// }
/// ```
///
/// Requests may be made from any task while a subscription is iterated; one subscription at a
/// time (a new `subscribe` replaces the daemon's subscription, as the protocol says).
public final class StrokeClient: @unchecked Sendable {
    // @unchecked: `connection` is read and written only with `lock` held; the rest is immutable.
    public let path: String
    public let maxLineLength: Int
    let readAhead: ReadAhead
    private let lock = ConditionLock()
    private var connection: StrokeConnection
    private var closed = false

    /// Connects and reads the greeting (`hello`); a daemon that sends none within 5 s (stopped,
    /// or not a strokes daemon) is `connectionLost`. `maxLineLength` bounds each line read from the
    /// daemon (a snapshot holds every point of the strokes in progress, up to the daemon's
    /// `queue.disconnectAfterBytes`); at most `bufferSize` messages, and messages of at most
    /// `bufferBytes` bytes of lines in all, are read ahead of the consumer (a message alone is
    /// taken whatever its size, within `maxLineLength`; a message of an unknown type counts for
    /// what its `JSONValue` holds in memory when that is more than its line).
    public static func connect(
        path: String = StrokeClient.defaultSocketPath, maxLineLength: Int = 64 << 20, bufferSize: Int = 8192,
        bufferBytes: Int = 16 << 20
    ) async throws -> StrokeClient {
        let readAhead = ReadAhead(messages: bufferSize, bytes: bufferBytes)
        let connection = try await StrokeConnection.open(path: path, maxLineLength: maxLineLength, readAhead: readAhead)
        return StrokeClient(path: path, maxLineLength: maxLineLength, readAhead: readAhead, connection: connection)
    }

    private init(path: String, maxLineLength: Int, readAhead: ReadAhead, connection: StrokeConnection) {
        self.path = path
        self.maxLineLength = maxLineLength
        self.readAhead = readAhead
        self.connection = connection
    }

    deinit { connection.close() }

    /// Where the clients look for the daemon when not told (`watch`, `render --socket`, `gestures`,
    /// and this library): `$STROKES_SOCKET`, else `/run/strokes/strokes.sock` when it exists, else
    /// `$XDG_RUNTIME_DIR/strokes.sock`: the paths `Scripts/run.sh` serves on. The daemon itself
    /// listens on `--socket`, else its configuration's `socket.path`.
    public static var defaultSocketPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["STROKES_SOCKET"], !path.isEmpty { return path }
        let system = "/run/strokes/strokes.sock"
        guard let runtime = environment["XDG_RUNTIME_DIR"], !FileManager.default.fileExists(atPath: system) else {
            return system
        }
        return runtime + "/strokes.sock"
    }

    /// The greeting of the daemon currently connected.
    public var hello: Hello { current.hello }

    private var current: StrokeConnection {
        lock.lock()
        defer { lock.unlock() }
        return connection
    }

    /// Closes the connection; a subscription being iterated ends with `connectionLost`.
    public func close() {
        lock.lock()
        closed = true
        let connection = self.connection
        lock.unlock()
        connection.close()
    }

    /// Drops the current connection as a network failure would (the client stays open): for
    /// tests of reconnection.
    func dropConnection() { current.close() }

    // Requests.

    /// Sends `command` on the current connection and returns its reply; an `error` reply throws
    /// `daemonError` (the connection stays open).
    public func request(_ command: Request.Command) async throws -> Reply.Result {
        try await current.request(command)
    }

    public func ping() async throws {
        _ = try await request(.ping)
    }

    public func devices() async throws -> [DeviceObject] {
        guard case .devices(let devices) = try await request(.devices) else { throw Self.unexpected("devices") }
        return devices
    }

    /// The strokes in progress, with their points so far, at `seq`.
    public func live(devices: [UInt32]? = nil) async throws -> (seq: UInt64, strokes: [StrokeObject]) {
        guard case .live(let seq, let strokes) = try await request(.live(devices: devices)) else { throw Self.unexpected("live") }
        return (seq, strokes)
    }

    /// One page of completed strokes (docs/protocol.md, "History pages").
    public func history(limit: Int? = nil, devices: [UInt32]? = nil, cursor: String? = nil) async throws -> Reply.HistoryPage {
        guard case .history(let page) = try await request(.history(limit: limit, devices: devices, cursor: cursor)) else {
            throw Self.unexpected("history")
        }
        return page
    }

    /// Every page of a history selection, oldest first.
    public func historyAll(limit: Int? = nil, devices: [UInt32]? = nil) async throws -> [StrokeObject] {
        var page = try await history(limit: limit, devices: devices)
        var strokes = page.strokes
        while let cursor = page.cursor {
            page = try await history(limit: limit, devices: devices, cursor: cursor)
            strokes += page.strokes
        }
        return strokes
    }

    public func stats() async throws -> Reply.Stats {
        guard case .stats(let stats) = try await request(.stats) else { throw Self.unexpected("stats") }
        return stats
    }

    private static func unexpected(_ request: String) -> StrokeClientError {
        StrokeClientError(.protocolError, "the reply to '\(request)' is another request's")
    }

    // The stream.

    /// The stream: a `snapshot`, then stroke, hover and device events (and `goodbye`, errors
    /// without a request, unknown types) as they come; see `Subscription`.
    public func subscribe(
        devices: [UInt32]? = nil, events: [Request.StreamType]? = nil, resumeAfter: UInt64? = nil,
        reconnect: Bool = true, backoff: Backoff = Backoff()
    ) -> Subscription {
        Subscription(
            client: self, state: StreamState(devices: devices, events: events, resumeAfter: resumeAfter),
            reconnect: reconnect, backoff: backoff)
    }

    /// The open connection, or a new one (with `backoff`) when it was lost.
    func liveConnection(backoff: Backoff) async throws -> StrokeConnection {
        var failures = 0
        while true {
            let (connection, closed) = lock.withLock { (self.connection, self.closed) }
            if closed { throw StrokeClientError(.connectionLost, "the client was closed") }
            if !connection.isClosed { return connection }
            let failure: StrokeClientError
            do {
                let fresh = try await StrokeConnection.open(path: path, maxLineLength: maxLineLength, readAhead: readAhead)
                lock.withLock { self.connection = fresh }
                // Returned even if the server closed it already: checking again here reopened at
                // once, without a failure counted, from a server that greets and closes.
                return fresh
            } catch let error as StrokeClientError where error.code == .connectionLost {
                failure = error
            } catch let error as StrokeClientError where error.error?.error == .tooManyClients {
                failure = error
            }
            failures += 1
            if let attempts = backoff.attempts, failures >= attempts {
                throw StrokeClientError(.connectionLost, "gave up reconnecting after \(failures) attempts: \(failure.message)")
            }
            try await Task.sleep(nanoseconds: UInt64(backoff.delay(after: failures) * 1e9))
        }
    }
}
