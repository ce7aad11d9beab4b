import StrokeProtocol

/// A subscription's events, as an `AsyncSequence`: a `snapshot`, then stroke, hover and device
/// events as the daemon sends them.
///
/// With `reconnect` (the default), a lost connection (a `goodbye`, a restarted daemon, a reset)
/// is re-established with the `Backoff` and the subscription resumed after the last sequence
/// number delivered: no message is delivered twice. When that cannot be done the sequence yields
/// a `.gap` (`gapTooOld`, `restarted`) and then the new snapshot. It throws `connectionLost` when
/// `backoff.attempts` reconnections in a row fail, or at the first loss without `reconnect`, and
/// `protocolError` or `daemonError` at once, never retried. One iterator at a time.
public struct Subscription: AsyncSequence, Sendable {
    public typealias Element = SubscriptionEvent
    let client: StrokeClient
    let state: StreamState
    let reconnect: Bool
    let backoff: Backoff

    public func makeAsyncIterator() -> Iterator {
        Iterator(driver: Driver(client: client, state: state, reconnect: reconnect, backoff: backoff))
    }

    public struct Iterator: AsyncIteratorProtocol {
        let driver: Driver
        public mutating func next() async throws -> SubscriptionEvent? { try await driver.next() }
    }

    /// The iterator's state across connections.
    final class Driver: @unchecked Sendable {
        // @unchecked: used by the one task iterating (AsyncIteratorProtocol's contract).
        let client: StrokeClient
        var state: StreamState
        let reconnect: Bool
        let backoff: Backoff
        private var connection: StrokeConnection?
        private var queued: [SubscriptionEvent] = []

        init(client: StrokeClient, state: StreamState, reconnect: Bool, backoff: Backoff) {
            self.client = client
            self.state = state
            self.reconnect = reconnect
            self.backoff = backoff
        }

        func next() async throws -> SubscriptionEvent? {
            while true {
                if !queued.isEmpty { return queued.removeFirst() }
                guard let connection else {
                    // Outside the catch below: giving up reconnecting, or a closed client, ends
                    // the subscription.
                    let fresh = try await client.liveConnection(backoff: reconnect ? backoff : Backoff(attempts: 1))
                    do {
                        try await subscribe(on: fresh)
                    } catch let error as StrokeClientError where error.code == .connectionLost {
                        fresh.close()
                        if !reconnect { throw error }
                    }
                    continue
                }
                do {
                    let message = try await connection.next()
                    if case .goodbye = message {
                        // The daemon closes after it: deliver it, then resume on a new connection.
                        connection.close()
                    }
                    if state.accept(message) { return .message(message) }
                } catch let error as StrokeClientError where error.code == .connectionLost {
                    connection.close()
                    self.connection = nil
                    if !reconnect { throw error }
                }
            }
        }

        /// Subscribes on `connection`, queueing the gaps to deliver.
        private func subscribe(on connection: StrokeConnection) async throws {
            let (command, gap) = state.subscribe(after: connection.hello)
            if let gap { queued.append(.gap(gap)) }
            guard case .subscribe(let result) = try await connection.request(command) else {
                throw StrokeClientError(.protocolError, "the reply to 'subscribe' is another request's")
            }
            if let gap = state.replied(result) { queued.append(.gap(gap)) }
            self.connection = connection
        }
    }
}
