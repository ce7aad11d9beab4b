/// A bounded hand-over from the connection's reader thread to one async consumer. The reader
/// never waits for the consumer (it must go on reading: a reply to the consumer's own request may
/// be behind the stream); a consumer that lets it fill has fallen behind, and the connection ends
/// for it after what is queued (`StrokeConnection`), as the daemon ends a slow client's.
final class Mailbox<Item: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property is read and written only with `condition` locked.
    private let condition = ConditionLock()
    private var items: [(item: Item, bytes: Int)] = []
    private var head = 0
    /// The bytes of the items waiting.
    private var queuedBytes = 0
    private var end: StrokeClientError?
    private var closed = false
    private var waiter: CheckedContinuation<Item, Error>?
    private let capacity: Int
    private let byteCapacity: Int

    /// At most `capacity` items, and items of at most `bytes` bytes in all, wait; an item alone
    /// is taken whatever its size.
    init(capacity: Int, bytes: Int) {
        self.capacity = max(1, capacity)
        byteCapacity = max(0, bytes)
    }

    enum Offer { case taken, full, closed }

    /// Hands `item`, which stands for `bytes` bytes, over without waiting: `full` when `capacity`
    /// items wait or it would take the waiting ones past the byte capacity (the item is not
    /// taken), `closed` once the consumer is gone.
    func offer(_ item: Item, bytes: Int) -> Offer {
        condition.lock()
        if closed {
            condition.unlock()
            return .closed
        }
        let waiting = items.count - head
        if waiting >= capacity || (waiting > 0 && queuedBytes + bytes > byteCapacity) {
            condition.unlock()
            return .full
        }
        if let waiter {
            self.waiter = nil
            condition.unlock()
            waiter.resume(returning: item)
            return .taken
        }
        items.append((item, bytes))
        queuedBytes += bytes
        condition.unlock()
        return .taken
    }

    /// Drops the waiting items `drop` picks.
    func removeAll(where drop: (Item) -> Bool) {
        condition.lock()
        items = items[head...].filter { !drop($0.item) }
        head = 0
        queuedBytes = items.reduce(0) { $0 + $1.bytes }
        condition.unlock()
    }

    /// No more items: `take` throws `error` once the queued ones are taken.
    func finish(_ error: StrokeClientError) {
        condition.lock()
        if end == nil { end = error }
        let waiter = self.waiter
        self.waiter = nil
        condition.unlock()
        waiter?.resume(throwing: error)
    }

    /// The consumer is gone: drops what is queued and wakes the reader.
    func close() {
        condition.lock()
        closed = true
        items.removeAll()
        head = 0
        queuedBytes = 0
        condition.broadcast()
        let waiter = self.waiter
        self.waiter = nil
        condition.unlock()
        waiter?.resume(throwing: StrokeClientError(.connectionLost, "the connection was closed"))
    }

    /// The next item; one consumer at a time.
    func take() async throws -> Item {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Item, Error>) in
                condition.lock()
                if head < items.count {
                    let (item, bytes) = items[head]
                    head += 1
                    queuedBytes -= bytes
                    if head >= 1024 && head * 2 >= items.count {
                        items.removeFirst(head)
                        head = 0
                    }
                    condition.signal()
                    condition.unlock()
                    continuation.resume(returning: item)
                } else if let end {
                    condition.unlock()
                    continuation.resume(throwing: end)
                } else if closed {
                    condition.unlock()
                    continuation.resume(throwing: StrokeClientError(.connectionLost, "the connection was closed"))
                } else if Task.isCancelled {
                    condition.unlock()
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiter = continuation
                    condition.unlock()
                }
            }
        } onCancel: {
            condition.lock()
            let waiter = self.waiter
            self.waiter = nil
            condition.unlock()
            waiter?.resume(throwing: CancellationError())
        }
    }
}

/// How far a connection's reader may read ahead of its consumer (`StrokeClient.connect`).
struct ReadAhead: Sendable {
    var messages: Int
    /// Bytes of lines: what the messages were sent as.
    var bytes: Int
}
