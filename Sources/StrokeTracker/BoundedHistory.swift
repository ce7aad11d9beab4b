/// The most recent `capacity` elements, oldest first: a ring buffer.
public struct BoundedHistory<Element: Sendable>: Sendable {
    public let capacity: Int
    private var storage: [Element] = []
    private var head = 0
    /// Elements ever appended: `elements[i]` is number `appended - count + i` (from 0).
    public private(set) var appended: UInt64 = 0

    public init(capacity: Int) {
        precondition(capacity >= 0, "history capacity must not be negative")
        self.capacity = capacity
        storage.reserveCapacity(min(capacity, 1024))
    }

    public mutating func append(_ element: Element) {
        appended += 1
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[head] = element
            head = (head + 1) % capacity
        }
    }

    public var count: Int { storage.count }

    /// Oldest first.
    public var elements: [Element] {
        Array(storage[head...] + storage[..<head])
    }
}
