import StrokeProtocol

/// A subscription's events, as an `AsyncSequence`: a `snapshot`, then stroke, hover and device
/// events as the daemon sends them.
///
/// With `reconnect` (the default), a lost connection (a `goodbye`, a restarted daemon, a reset)
/// is re-established with the `Backoff` and the subscription resumed after the last sequence
/// number delivered: no message is delivered twice. When that cannot be done the sequence yields
/// a `.gap` (`gapTooOld`, `restarted`) and then the new snapshot. It throws `connectionLost` when
/// `backoff.attempts` reconnections in a row fail (a reconnection fails unless the daemon answers
/// its `subscribe`), or at the first loss without `reconnect`, and `protocolError` or
/// `daemonError` at once, never retried. A subscription lost within `backoff.maximum` seconds of
/// being answered waits `backoff.delay` before reconnecting, longer for each such loss in a row:
/// a daemon that answers and closes every time is not reconnected to in a busy loop. One
/// iterator at a time.
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
        /// Reconnections in a row that did not get the subscription back.
        private var failures = 0
        /// Subscriptions in a row lost within `backoff.maximum` of being answered, and when the
        /// current one was.
        private var shortLosses = 0
        private var subscribedAt: ContinuousClock.Instant?
        /// Seconds to wait before the next reconnection.
        private var wait = 0.0
        /// The daemon said goodbye on the current connection.
        private var saidGoodbye = false

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
                    if wait > 0 {
                        try await Task.sleep(nanoseconds: UInt64(wait * 1e9))
                        wait = 0
                    }
                    // Outside the catch below: giving up reconnecting, or a closed client, ends
                    // the subscription.
                    let fresh = try await client.liveConnection(backoff: reconnect ? backoff : Backoff(attempts: 1))
                    do {
                        try await subscribe(on: fresh)
                        failures = 0
                        subscribedAt = .now
                    } catch let error as StrokeClientError where error.code == .connectionLost {
                        fresh.close()
                        if !reconnect { throw error }
                        // The connection opened but the subscription did not come back (a server
                        // that greets and closes): a failed reconnection, backed off and counted.
                        failures += 1
                        if let attempts = backoff.attempts, failures >= attempts {
                            throw StrokeClientError(
                                .connectionLost, "gave up reconnecting after \(failures) attempts: \(error.message)")
                        }
                        wait = backoff.delay(after: failures)
                    }
                    continue
                }
                do {
                    let message = try await connection.next()
                    if case .goodbye = message {
                        // The daemon closes after it: deliver it, then resume on a new connection.
                        saidGoodbye = true
                        connection.close()
                    }
                    if try state.accept(message) { return .message(message) }
                } catch let error as StrokeClientError where error.code == .connectionLost {
                    // Only the daemon ending it is a short session; a stream dropped behind a slow
                    // consumer (or closed here) resumes at once.
                    let byDaemon = saidGoodbye || connection.endedByPeer
                    saidGoodbye = false
                    connection.close()
                    self.connection = nil
                    if !reconnect { throw error }
                    if byDaemon { noteLoss() } else { subscribedAt = nil }
                }
            }
        }

        /// The daemon ended the subscription: a short one (within `backoff.maximum` of being
        /// answered) waits before reconnecting, longer for each in a row; a longer one starts over.
        private func noteLoss() {
            guard let since = subscribedAt else { return }
            subscribedAt = nil
            let lasted = since.duration(to: .now)
            if lasted >= .nanoseconds(Int64(backoff.maximum * 1e9)) {
                shortLosses = 0
            } else {
                shortLosses += 1
                wait = backoff.delay(after: shortLosses)
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
