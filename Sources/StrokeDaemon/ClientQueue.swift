import StrokeTracker

/// What a queued message may be merged with: a later message with the same key replaces it once
/// the queue is long enough. `moved` is keyed by its stroke, hover `motion` by its device and
/// slot (`Broadcast.mergeKey`); the queue's rule is the same for every case.
public enum MergeKey: Hashable, Sendable {
    case moved(StrokeID)
    /// Hover `motion` of one slot of one device.
    case hover(device: DeviceID, slot: Int32)
}

/// One client's outgoing queue and the slow-client policy (docs/protocol.md, "Slow clients").
/// Pure: the connection handler enqueues what the client should get (with its size in bytes)
/// and dequeues what the socket can take.
///
/// - Below the merge threshold (`mergeThreshold` messages, or a quarter of `byteLimit` bytes)
///   everything is queued as is.
/// - From there on, a message with a merge key replaces the queued message with the same key, if
///   there is one, goes to the end of the queue, and carries the number of messages it stands for
///   (`merged`). The replaced message's memory is released at once; its slot is reclaimed by the
///   next compaction, which runs whenever free slots outnumber held messages.
/// - Messages without a merge key (`began`, `ended`, `cancelled`, device events, replies) are
///   never merged or dropped: a message that would take the queue past `disconnectThreshold`
///   messages or `byteLimit` bytes is refused (`overflow`), and the client must be disconnected.
public struct ClientQueue<Message: Sendable>: Sendable {
    public struct Entry: Sendable {
        public var message: Message
        /// Set for a mergeable message, so that later ones with the same key can replace it.
        public var mergeKey: MergeKey?
        /// How many messages this entry stands for beyond its own (0 when not merged).
        public var merged: Int
        /// The message's size as charged to the queue.
        public var bytes: Int
    }

    public enum EnqueueResult: Hashable, Sendable {
        case queued
        case merged
        case overflow
    }

    public private(set) var mergeThreshold: Int
    public private(set) var disconnectThreshold: Int
    public private(set) var byteLimit: Int
    /// Slots from `head` on, with nil for those merged away; slots before `head` were sent.
    private var entries: [Entry?] = []
    private var head = 0
    /// Nil slots at or after `head`.
    private var holes = 0
    /// The slot of the latest queued message of each key.
    private var lastByKey: [MergeKey: Int] = [:]
    /// Messages held (not merged away, not yet dequeued).
    public private(set) var count = 0
    /// Bytes held by those messages.
    public private(set) var bytes = 0
    /// Bytes held for the client beyond the queue (the rest of a write its socket did not take,
    /// in the socket layer's hands until written), kept current by its owner: counted with
    /// `bytes` against `byteLimit` and the merge threshold, so the limits apply to all that is
    /// held for the client. Not changed by `removeAll`.
    public var outside = 0
    /// `bytes` and `outside`.
    public var held: Int { bytes + outside }
    public private(set) var mergedTotal = 0

    public init(mergeThreshold: Int, disconnectThreshold: Int, byteLimit: Int = .max) {
        precondition(mergeThreshold > 0 && disconnectThreshold >= mergeThreshold && byteLimit > 0)
        self.mergeThreshold = mergeThreshold
        self.disconnectThreshold = disconnectThreshold
        self.byteLimit = byteLimit
    }

    /// New limits (a configuration reload): they apply from the next message on.
    public mutating func setLimits(mergeAfter: Int, disconnectAfter: Int, byteLimit: Int) {
        precondition(mergeAfter > 0 && disconnectAfter >= mergeAfter && byteLimit > 0)
        mergeThreshold = mergeAfter
        disconnectThreshold = disconnectAfter
        self.byteLimit = byteLimit
    }

    public var isEmpty: Bool { count == 0 }

    /// Slots the queue's storage holds, free ones included: at most twice `count` plus a
    /// constant, whatever was merged (what tests check memory against).
    public var slots: Int { entries.count }

    private var merging: Bool { merges(holding: count, bytes: bytes + outside) }

    /// Whether a queue holding `count` messages of `bytes` in all merges the next mergeable one
    /// (the threshold the queue applies to itself, for a caller that wants to know whether
    /// queueing messages would keep them as they are).
    public func merges(holding count: Int, bytes: Int) -> Bool { count >= mergeThreshold || bytes >= byteLimit / 4 }

    public mutating func enqueue(_ message: Message, mergeKey: MergeKey?, bytes size: Int) -> EnqueueResult {
        var merged = 0
        var result = EnqueueResult.queued
        if let key = mergeKey, merging, let slot = lastByKey[key], let old = entries[slot] {
            entries[slot] = nil
            holes += 1
            count -= 1
            bytes -= old.bytes
            merged = old.merged + 1
            mergedTotal += 1
            result = .merged
        }
        if count + 1 > disconnectThreshold || bytes + outside + size > byteLimit { return .overflow }
        if let key = mergeKey { lastByKey[key] = entries.count }
        entries.append(Entry(message: message, mergeKey: mergeKey, merged: merged, bytes: size))
        count += 1
        bytes += size
        compactIfNeeded()
        return result
    }

    /// Forgets the key's mergeable message (a stroke that ended): nothing more of it follows.
    public mutating func finished(_ key: MergeKey) { lastByKey[key] = nil }

    /// Nothing queued so far is merged into from now on: a reply that states a sequence number
    /// (`subscribe`, `unsubscribe`) and a snapshot come next, and a later move merged into a move
    /// before them would be counted on the wrong side of their number.
    public mutating func sealMerges() { lastByKey.removeAll(keepingCapacity: true) }

    public mutating func dequeue() -> Entry? {
        while head < entries.count {
            let e = entries[head]
            entries[head] = nil
            head += 1
            if let e {
                count -= 1
                bytes -= e.bytes
                if let key = e.mergeKey, lastByKey[key] == head - 1 { lastByKey[key] = nil }
                if count == 0 {
                    // Drained (a client that keeps up, every frame): start over in the same storage
                    // rather than leave it to compaction, which would make a new array; storage
                    // grown large while the client was behind is let go.
                    entries.removeAll(keepingCapacity: entries.capacity <= 256)
                    lastByKey.removeAll(keepingCapacity: true)
                    head = 0
                    holes = 0
                    return e
                }
                compactIfNeeded()
                return e
            }
            holes -= 1
        }
        compactIfNeeded()
        return nil
    }

    /// Drops everything held (a client being disconnected): the memory goes at once.
    public mutating func removeAll() {
        entries = []
        head = 0
        holes = 0
        lastByKey = [:]
        count = 0
        bytes = 0
    }

    /// Moves the held messages to the front of fresh storage once the free slots (sent or merged
    /// away) outnumber them, so storage stays proportional to what is held.
    private mutating func compactIfNeeded() {
        let free = head + holes
        guard free > 64, free > count else { return }
        var kept: [Entry?] = []
        kept.reserveCapacity(count)
        var last: [MergeKey: Int] = [:]
        for slot in head..<entries.count {
            guard let e = entries[slot] else { continue }
            if let key = e.mergeKey, lastByKey[key] == slot { last[key] = kept.count }
            kept.append(e)
        }
        entries = kept
        lastByKey = last
        head = 0
        holes = 0
    }
}
