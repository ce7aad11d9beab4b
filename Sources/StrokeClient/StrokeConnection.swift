// FoundationEssentials has JSONDecoder, Data, ProcessInfo and FileManager without the rest of
// Foundation (and its ICU).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrokeProtocol
import Synchronization
import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// One connection to the daemon: its greeting, requests with their replies, and the other
/// messages in order. `StrokeClient` adds reconnection on top.
///
/// A blocking socket read on a dedicated thread, not NIO: the reader needs to stop reading when
/// the consumer falls behind (backpressure, so the daemon's slow-client policy applies to a slow
/// consumer rather than this process buffering without bound), which a thread blocked on a
/// condition gives directly; a connection here outlives any one call, which NIO's scoped
/// `NIOAsyncChannel.executeThenClose` does not fit without an unstructured task; and the library
/// stays free of an event loop group its users would have to manage. One thread per connection
/// is what a client holding one or two connections can afford.
final class StrokeConnection: @unchecked Sendable {
    // @unchecked: `socket` and `path` are immutable; `replies`, `nextID`, `subscribing` and
    // `closed` are used only with `lock` held (`awaitingSubscription` is atomic); `hello` is set
    // once before the connection is handed out.
    let path: String
    private let socket: LineSocket
    private let mailbox: Mailbox<ServerMessage>
    private let readAhead: ReadAhead
    private let lock = ConditionLock()
    private var replies: [Int64: CheckedContinuation<ServerMessage, Error>] = [:]
    private var nextID: Int64 = 0
    /// A `subscribe` awaiting its reply: until it comes, the stream is the previous
    /// subscription's, and is dropped (a new subscription starts with its own snapshot or resume).
    private var subscribing: Int64?
    /// `subscribing != nil`, set and cleared with it under `lock`, read without the lock for every
    /// stream message on the reader's thread.
    private let awaitingSubscription = Atomic<Bool>(false)
    private var closed = false
    /// The daemon ended the connection (end of stream, or a receive error) before this side closed
    /// it or dropped the stream (a consumer behind): what a subscription counts as a short session.
    private var peerEnded = false
    private(set) var hello: Hello!

    /// Connects and reads the greeting. A daemon refusing the client (`tooManyClients`,
    /// `forbidden`) throws `daemonError`; anything but a `hello` throws `protocolError`.
    static func open(path: String, maxLineLength: Int, readAhead: ReadAhead) async throws -> StrokeConnection {
        let socket: LineSocket
        do {
            socket = try LineSocket(path: path)
        } catch let e as LineSocket.Error {
            throw StrokeClientError(.connectionLost, e.message)
        }
        let connection = StrokeConnection(path: path, socket: socket, readAhead: readAhead)
        do {
            try startThread { connection.readLoop(maxLineLength: maxLineLength) }
        } catch {
            connection.close()
            throw error
        }
        do {
            switch try await connection.mailbox.take() {
            case .hello(let hello) where hello.protocol == ProtocolVersion.current:
                connection.hello = hello
            case .hello(let hello):
                throw StrokeClientError(
                    .protocolError, "\(path) speaks protocol \(hello.protocol), this client \(ProtocolVersion.current)")
            case .error(let error):
                throw StrokeClientError(.daemonError, "\(error.error): \(error.message)", error: error)
            case let other:
                throw StrokeClientError(.protocolError, "expected the daemon's hello from \(path), got '\(other.type)'")
            }
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private init(path: String, socket: LineSocket, readAhead: ReadAhead) {
        self.path = path
        self.socket = socket
        self.mailbox = Mailbox(capacity: readAhead.messages, bytes: readAhead.bytes)
        self.readAhead = readAhead
    }

    /// The next message that is not a reply to one of this connection's requests.
    func next() async throws -> ServerMessage { try await mailbox.take() }

    /// Sends `command` and waits for its reply; an `error` reply throws `daemonError`.
    func request(_ command: Request.Command) async throws -> Reply.Result {
        let message = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ServerMessage, Error>) in
            lock.lock()
            guard !closed else {
                lock.unlock()
                continuation.resume(throwing: StrokeClientError(.connectionLost, "the connection to \(path) is closed"))
                return
            }
            nextID += 1
            let id = nextID
            replies[id] = continuation
            if case .subscribe = command {
                subscribing = id
                awaitingSubscription.store(true, ordering: .releasing)
            }
            lock.unlock()
            do {
                try socket.send(try Request(id: .int(id), command).line())
            } catch {
                lock.lock()
                let pending = replies.removeValue(forKey: id)
                lock.unlock()
                pending?.resume(throwing: StrokeClientError(.connectionLost, "\(path): \(error)"))
            }
        }
        switch message {
        case .reply(let reply): return reply.result
        case .error(let error): throw StrokeClientError(.daemonError, "\(error.error): \(error.message)", error: error)
        default: throw StrokeClientError(.protocolError, "a reply that is a '\(message.type)'")
        }
    }

    /// Closes the connection: the reader stops, waiting requests and `next` throw `connectionLost`.
    func close() {
        lock.lock()
        let wasClosed = closed
        closed = true
        lock.unlock()
        guard !wasClosed else { return }
        // Wakes the reader's recv; the descriptor is closed when the reader lets go of the socket.
        shutdown(socket.fd, Int32(SHUT_RDWR))
        mailbox.close()
        failReplies(StrokeClientError(.connectionLost, "the connection to \(path) was closed"))
    }

    /// Whether the daemon ended the connection (its end of stream or a receive error), rather
    /// than this side closing it or dropping the stream behind a slow consumer.
    var endedByPeer: Bool {
        lock.lock()
        defer { lock.unlock() }
        return peerEnded
    }

    private func notePeerEnded(behind: Bool) {
        lock.lock()
        if !closed && !behind { peerEnded = true }
        lock.unlock()
    }

    var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    private func failReplies(_ error: StrokeClientError) {
        lock.lock()
        let pending = replies
        replies.removeAll()
        closed = true
        lock.unlock()
        for continuation in pending.values { continuation.resume(throwing: error) }
    }

    // The reader thread.

    /// How long the daemon's `hello` may take: it sends it as it accepts, so silence means a
    /// stopped daemon (the kernel completes the connection from the listen backlog) or a socket
    /// that is not the daemon's.
    static let helloTimeout = 5.0

    private struct HelloTimeout: Error {}

    /// Waits for the greeting's next bytes, at most `helloTimeout`.
    private func awaitHello() throws {
        var p = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        // A signal restarts the wait with the whole timeout: a bound, not a deadline.
        let ready = (try? Syscall.retrying { poll(&p, 1, Int32(Self.helloTimeout * 1000)) }) ?? 1
        if ready == 0 { throw HelloTimeout() }
    }

    private func readLoop(maxLineLength: Int) {
        var reader = SocketLines(fd: socket.fd, maxLineLength: maxLineLength)
        let end: StrokeClientError
        var behind = false
        var greeted = false
        reading: while true {
            let line: [UInt8]
            do {
                guard let next = try reader.next(beforeReceive: { if !greeted { try awaitHello() } }) else {
                    end = StrokeClientError(.connectionLost, "\(path) closed the connection")
                    notePeerEnded(behind: behind)
                    break
                }
                line = Array(next)
                greeted = true
            } catch SocketLines.Failure.tooLong(let limit) {
                end = StrokeClientError(.protocolError, "a line longer than \(limit) bytes")
                break
            } catch is HelloTimeout {
                end = StrokeClientError(
                    .connectionLost, "\(path) sent no hello within \(Int(Self.helloTimeout)) s (a stopped daemon, or not a strokes socket)")
                break
            } catch SocketLines.Failure.recv(let errno) {
                end = StrokeClientError(.connectionLost, "recv: \(errno)")
                notePeerEnded(behind: behind)
                break
            } catch {
                end = StrokeClientError(.connectionLost, "\(path): \(error)")
                break
            }
            let message: ServerMessage
            do {
                message = try ServerMessage.decode(Data(line))
            } catch {
                end = StrokeClientError(.protocolError, "\(path) sent a line that is not the strokes protocol (\(Self.describe(error))): \(Self.excerpt(line))")
                break
            }
            if let id = Self.replyID(message) {
                lock.lock()
                let continuation = replies.removeValue(forKey: id)
                let subscribed = subscribing == id
                if subscribed {
                    subscribing = nil
                    awaitingSubscription.store(false, ordering: .releasing)
                }
                lock.unlock()
                if let continuation {
                    // What the consumer has not taken of the previous subscription goes: it
                    // went on to the new one before its snapshot (and, with resumeAfter, moved the
                    // position past what the resume then sends: lost as if delivered).
                    if subscribed { mailbox.removeAll(where: Self.isSubscriptionMessage) }
                    continuation.resume(returning: message)
                    continue
                }
            }
            if Self.isSubscriptionMessage(message), awaitingSubscription.load(ordering: .acquiring) { continue }
            // Fallen behind: the stream is dropped from here (replies still reach their requests
            // above), and the consumer gets `connectionLost` after what is queued; a subscription
            // reconnects and resumes after the last message it delivered.
            if behind { continue }
            switch mailbox.offer(message, bytes: Self.cost(of: message, line: line)) {
            case .taken: break
            case .full:
                behind = true
                mailbox.finish(StrokeClientError(
                    .connectionLost,
                    "the consumer fell \(readAhead.messages) messages (bufferSize) or \(readAhead.bytes) bytes (bufferBytes) behind"))
            case .closed:
                end = StrokeClientError(.connectionLost, "the connection to \(path) was closed")
                break reading
            }
        }
        failReplies(end)
        mailbox.finish(end)
    }

    /// What `message` counts for in the read-ahead's bytes: its line, or for a message kept as a
    /// tree (a type this client does not know) what the tree holds, when that is more.
    static func cost(of message: ServerMessage, line: [UInt8]) -> Int {
        guard case .unknown(_, let raw) = message else { return line.count }
        return max(line.count, raw.memoryEstimate)
    }

    private static func replyID(_ message: ServerMessage) -> Int64? {
        switch message {
        case .reply(let r): if case .int(let id) = r.id { return id }
        case .error(let e): if case .int(let id) = e.id { return id }
        default: break
        }
        return nil
    }

    /// A message of a subscription's stream (not a reply, error, goodbye or unknown type).
    static func isSubscriptionMessage(_ message: ServerMessage) -> Bool {
        switch message {
        case .snapshot, .stroke, .hover, .gesture, .deviceAdded, .deviceRemoved: true
        case .hello, .reply, .error, .goodbye, .replayEnded, .unknown: false
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "no '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        // Its own words: "not JSON: …" from the syntax check, or what was wrong with a value of
        // well-formed JSON (a number out of range), which "not JSON" misnamed.
        case DecodingError.dataCorrupted(let context): context.debugDescription
        default: "\(error)"
        }
    }

    private static func excerpt(_ line: [UInt8]) -> String {
        let text = String(decoding: line.prefix(60), as: UTF8.self).debugDescription
        return line.count > 60 ? text + "…" : text
    }
}
