/// The events one step of the pipeline appends (a frame's contact or stroke events), for the
/// next step to read in place.
///
/// An array checks that its storage is its own (a call into the runtime) on every `append`, and
/// a value built for an append was copied twice around that call. Here the storage is made the
/// buffer's own once per step, by `makeUnique()`, and the step's appends only check for room
/// (`appendAssumingUnique`). Copies of a buffer stay independent: the first `makeUnique` on a
/// copy copies the storage.
///
/// Only for trivial elements (no references: decoded events), which it never deinitializes.
public struct EventBuffer<Element> {
    @usableFromInline var storage: Storage
    /// Events held, from `storage.base`.
    @usableFromInline var held = 0

    @inlinable
    public init(capacity: Int = 64) {
        precondition(_isPOD(Element.self), "EventBuffer holds trivial elements only")
        storage = Storage(capacity: Swift.max(capacity, 1))
    }

    /// Events held.
    @inlinable public var count: Int { held }
    @inlinable public var isEmpty: Bool { held == 0 }

    /// Makes the storage this buffer's own: once per step, before its `appendAssumingUnique`
    /// calls.
    @inlinable @inline(__always)
    public mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { grow(minimum: held) }
    }

    /// Appends `event` to storage that `makeUnique()` made this buffer's own in the same step,
    /// growing it as needed (growing keeps it the buffer's own).
    @inlinable @inline(__always)
    public mutating func appendAssumingUnique(_ event: Element) {
        assert(isKnownUniquelyReferenced(&storage), "EventBuffer appended without makeUnique()")
        if _slowPath(held == storage.capacity) { grow(minimum: held + 1) }
        (storage.base + held).initialize(to: event)
        held &+= 1
    }

    /// Appends `event`: for appends outside a step's hot path.
    @inlinable
    public mutating func append(_ event: Element) {
        makeUnique()
        appendAssumingUnique(event)
    }

    /// Empties the buffer, keeping its storage.
    @inlinable @inline(__always)
    public mutating func removeAll() { held = 0 }

    /// The events from `start` on, in place, for the duration of `body`.
    @inlinable @inline(__always)
    public func withUnsafeBufferPointer<R>(from start: Int = 0, _ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        precondition(start >= 0 && start <= count, "EventBuffer: \(start) out of 0...\(count)")
        return try withExtendedLifetime(storage) {
            try body(UnsafeBufferPointer(start: storage.base + start, count: count - start))
        }
    }

    /// Runs `body` with a buffer of its own and appends what it appended to `array`: the
    /// array-taking forms of the pipeline's calls (tests, and callers that keep the events).
    @inlinable
    public static func appending<R>(to array: inout [Element], _ body: (inout EventBuffer) throws -> R) rethrows -> R {
        var buffer = EventBuffer(capacity: 8)
        let result = try body(&buffer)
        buffer.withUnsafeBufferPointer { array.append(contentsOf: $0) }
        return result
    }

    /// The events, as an array (tests, and callers that keep them).
    @inlinable public var array: [Element] { withUnsafeBufferPointer { Array($0) } }

    @inlinable @inline(never)
    mutating func grow(minimum: Int) {
        var capacity = Swift.max(storage.capacity, 1)
        while capacity < minimum { capacity *= 2 }
        let new = Storage(capacity: capacity)
        new.base.initialize(from: storage.base, count: count)
        storage = new
    }

    @usableFromInline final class Storage {
        @usableFromInline let base: UnsafeMutablePointer<Element>
        @usableFromInline let capacity: Int

        @inlinable
        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        @inlinable deinit { base.deallocate() }
    }
}

// Sendable when its events are: the storage is written only through a buffer that made it unique
// (`makeUnique`), so never while another buffer or thread can see it.
extension EventBuffer: @unchecked Sendable where Element: Sendable {}
