/// A bounded hand-over from the connection's reader thread to one async consumer. The reader
/// blocks while it is full, so a consumer that falls behind stops the reading, and the daemon
/// sees a slow client (moves merged, then `goodbye`) instead of this process growing.
final class Mailbox<Item: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property is read and written only with `condition` locked.
    private let condition = ConditionLock()
    private var items: [Item] = []
    private var head = 0
    private var end: StrokeClientError?
    private var closed = false
    private var waiter: CheckedContinuation<Item, Error>?
    private let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Hands `item` over, waiting while the mailbox is full. False once it is closed.
    func put(_ item: Item) -> Bool {
        condition.lock()
        while items.count - head >= capacity && !closed { condition.wait() }
        if closed {
            condition.unlock()
            return false
        }
        if let waiter {
            self.waiter = nil
            condition.unlock()
            waiter.resume(returning: item)
            return true
        }
        items.append(item)
        condition.unlock()
        return true
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
                    let item = items[head]
                    head += 1
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
