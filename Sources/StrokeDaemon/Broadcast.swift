import InputCore
import NIOCore
import StrokeTracker

/// One stream message for every subscriber: a stroke event or a device event, numbered and
/// encoded once.
public struct Broadcast: Sendable {
    public enum Kind: Sendable {
        case stroke(StrokeHeader)
        case deviceAdded
        case deviceRemoved
        /// A `gesture` step: not numbered, not kept for resuming, sent only to clients that ask.
        case gesture
    }

    /// Daemon-wide sequence number: 1, 2, 3, … with no gaps, per daemon instance.
    public var seq: UInt64
    public var kind: Kind
    public var device: DeviceID
    /// The protocol line and its newline, as written to every subscriber: encoded once, the
    /// storage shared by all the clients' queues (and the resume buffer).
    public var bytes: ByteBuffer
    /// Where a slow client's `,"merged":n` goes in `bytes` (a byte offset), recorded by the writer
    /// (`StrokeEvent.encode`); nil for messages that are never merged.
    public var mergedOffset: Int? = nil

    public init(seq: UInt64, kind: Kind, device: DeviceID, bytes: ByteBuffer, mergedOffset: Int? = nil) {
        self.seq = seq
        self.kind = kind
        self.device = device
        self.bytes = bytes
        self.mergedOffset = mergedOffset
    }

    /// A message from its line (without the newline).
    public init(seq: UInt64, kind: Kind, device: DeviceID, line: String, mergedOffset: Int? = nil) {
        var buffer = ByteBufferAllocator().buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        self.init(seq: seq, kind: kind, device: device, bytes: buffer, mergedOffset: mergedOffset)
    }

    /// The protocol line, without the newline.
    public var line: String { String(decoding: bytes.readableBytesView.dropLast(), as: UTF8.self) }

    /// The message's `type` on the wire, which subscriptions filter on.
    public var typeName: String {
        switch kind {
        case .stroke(let e): return e.kind.name
        case .deviceAdded: return "deviceAdded"
        case .deviceRemoved: return "deviceRemoved"
        case .gesture: return "gesture"
        }
    }

    /// What a slow client's queue may merge this message with (`ClientQueue`): a `moved` with
    /// the stroke's earlier `moved`, a hover `motion` with the same slot's earlier hover
    /// `motion`. Nil for everything that is never merged.
    public var mergeKey: MergeKey? {
        guard case .stroke(let e) = kind, mergedOffset != nil else { return nil }
        switch e.kind {
        case .moved: return .moved(e.stroke)
        case .hover(.motion): return .hover(device: e.device, slot: e.slot)
        case .began, .ended, .cancelled, .hover(.proximityIn), .hover(.proximityOut): return nil
        }
    }

    /// The merge key this message ends: after a stroke's `ended` or `cancelled` no `moved` of it
    /// follows, and a hover `motion` after `proximityOut` must not merge across it.
    public var finishedKey: MergeKey? {
        guard case .stroke(let e) = kind else { return nil }
        switch e.kind {
        case .ended, .cancelled: return .moved(e.stroke)
        case .hover(.proximityOut): return .hover(device: e.device, slot: e.slot)
        case .began, .moved, .hover(.proximityIn), .hover(.motion): return nil
        }
    }

    /// A `hover` event: sent only to clients that ask for `hover` in `subscribe.events`.
    public var isHover: Bool {
        if case .stroke(let e) = kind, case .hover = e.kind { return true }
        return false
    }
}

/// What the daemon's filters and slow-client queues need of a stroke event (`Broadcast.Kind`):
/// its type, stroke, device and slot. The rest is in the encoded line; the whole event (some 170
/// bytes) is not copied into every client's queue and the resume buffer.
public struct StrokeHeader: Sendable {
    public var kind: StrokeEvent.Kind
    public var stroke: StrokeID
    public var device: DeviceID
    public var slot: Int32

    public init(_ e: StrokeEvent) {
        kind = e.kind
        stroke = e.stroke
        device = e.device
        slot = e.slot
    }
}

/// What the daemon knows of a device it serves.
public struct DeviceInfo: Sendable {
    public var id: DeviceID
    /// `/dev/input/eventN`, or `replay:FILE` for a served recording.
    public var path: String
    public var description: DeviceDescription
    public var geometry: DeviceGeometry
}
