import StrokeTracker

/// One client's outgoing queue and the slow-client policy (docs/protocol.md, "Slow clients").
/// Pure: the connection handler enqueues what the client should get and dequeues what the socket
/// can take.
///
/// - Below `mergeThreshold` queued messages everything is queued as is.
/// - From `mergeThreshold` on, a `moved` replaces the queued `moved` of the same stroke, if there
///   is one, and carries the number of moves it stands for (`merged`): the latest point is kept.
/// - `began`, `ended`, `cancelled`, device events and replies are never merged or dropped.
/// - Past `disconnectThreshold` queued messages the client is disconnected (`slowClient`).
public struct ClientQueue<Message: Sendable>: Sendable {
    public struct Entry: Sendable {
        public var message: Message
        /// Set for a `moved`: the stroke, so that later moves of it can replace this one.
        public var mergeKey: StrokeID?
        /// How many moves this entry stands for beyond its own (0 when not merged).
        public var merged: Int
    }

    public enum EnqueueResult: Hashable, Sendable {
        case queued
        case merged
        case overflow
    }

    public private(set) var mergeThreshold: Int
    public private(set) var disconnectThreshold: Int
    /// Entries, with nil for those merged away; `entries[i]` has absolute index `base + i`.
    private var entries: [Entry?] = []
    private var head = 0
    private var base = 0
    private var lastMove: [StrokeID: Int] = [:]
    public private(set) var count = 0
    public private(set) var mergedTotal = 0

    public init(mergeThreshold: Int, disconnectThreshold: Int) {
        precondition(mergeThreshold > 0 && disconnectThreshold >= mergeThreshold)
        self.mergeThreshold = mergeThreshold
        self.disconnectThreshold = disconnectThreshold
    }

    /// New thresholds (a configuration reload): they apply from the next message on.
    public mutating func setLimits(mergeAfter: Int, disconnectAfter: Int) {
        precondition(mergeAfter > 0 && disconnectAfter >= mergeAfter)
        mergeThreshold = mergeAfter
        disconnectThreshold = disconnectAfter
    }

    public var isEmpty: Bool { count == 0 }

    public mutating func enqueue(_ message: Message, mergeKey: StrokeID?) -> EnqueueResult {
        var merged = 0
        var result = EnqueueResult.queued
        if let key = mergeKey, count >= mergeThreshold, let abs = lastMove[key], abs >= base + head,
            let old = entries[abs - base]
        {
            entries[abs - base] = nil
            count -= 1
            merged = old.merged + 1
            mergedTotal += 1
            result = .merged
        }
        if count >= disconnectThreshold { return .overflow }
        if let key = mergeKey { lastMove[key] = base + entries.count }
        entries.append(Entry(message: message, mergeKey: mergeKey, merged: merged))
        count += 1
        return result
    }

    /// Forgets the stroke's mergeable move, once the stroke has ended: nothing of it follows.
    public mutating func strokeFinished(_ stroke: StrokeID) { lastMove[stroke] = nil }

    public mutating func dequeue() -> Entry? {
        while head < entries.count {
            let e = entries[head]
            head += 1
            if let e {
                count -= 1
                if let key = e.mergeKey, lastMove[key] == base + head - 1 { lastMove[key] = nil }
                compactIfNeeded()
                return e
            }
        }
        compactIfNeeded()
        return nil
    }

    private mutating func compactIfNeeded() {
        guard head > 64, head * 2 > entries.count else { return }
        entries.removeFirst(head)
        base += head
        head = 0
    }
}
