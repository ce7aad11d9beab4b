import InputCore
import MultitouchDecoder

/// One finger's stroke: from touch down to lift (or cancellation), with its polyline.
public struct Stroke: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        case inProgress
        case ended
        case cancelled(CancelReason)
    }

    public var id: StrokeID
    public var device: DeviceID
    public var slot: Int32
    public var trackingID: Int32?
    public var flags: ContactFlags
    public var state: State
    /// The frame the stroke began in (per-device `SYN_REPORT` count, from 1).
    public var firstFrame: UInt64
    public var points: [StrokePoint]
    /// The frame of its latest event.
    public var lastFrame: UInt64 = 0

    public var beganAt: Timestamp { points.first!.time }
    public var lastAt: Timestamp { points.last!.time }
}
