/// The most recent `capacity` elements, oldest first: a ring buffer. As a collection, index 0 is
/// the oldest element kept; reading it copies nothing.
///
/// Inlinable: the daemon keeps one of `Broadcast`s (a type of its own module), appended to once
/// per message; unspecialised, every call looked up generic metadata at run time.
public struct BoundedHistory<Element: Sendable>: Sendable, RandomAccessCollection {
    public let capacity: Int
    @usableFromInline var storage: [Element] = []
    @usableFromInline var head = 0
    /// Elements ever appended: `self[i]` is number `appended - count + i` (from 0).
    @inlinable
    public var appended: UInt64 { appendedCount }
    @usableFromInline var appendedCount: UInt64 = 0

    @inlinable
    public init(capacity: Int) {
        precondition(capacity >= 0, "history capacity must not be negative")
        self.capacity = capacity
        storage.reserveCapacity(Swift.min(capacity, 1024))
    }

    @inlinable
    public mutating func append(_ element: Element) {
        appendedCount += 1
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[head] = element
            head = (head + 1) % capacity
        }
    }

    @inlinable
    public var startIndex: Int { 0 }
    @inlinable
    public var endIndex: Int { storage.count }
    @inlinable
    public var count: Int { storage.count }

    /// The element `position` places from the oldest kept.
    @inlinable
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < storage.count, "BoundedHistory: index \(position) out of 0..<\(storage.count)")
        let i = head + position
        return storage[i < storage.count ? i : i - storage.count]
    }

    /// Oldest first, copied into an array.
    public var elements: [Element] { Array(self) }
}
