import InputCore
import MultitouchDecoder

/// A stroke lifecycle event: what clients receive.
///
/// Guarantee: every `began` is followed by exactly one `ended` or `cancelled` for the same
/// `stroke`, with only `moved` events in between. `hover` events belong to no stroke: their
/// `stroke` is `StrokeID.hover(device:slot:)`, which is never a stroke's id and is not on the wire.
public struct StrokeEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case began
        case moved
        case ended
        case cancelled(CancelReason)
        /// A tool near the surface, not touching it (docs/protocol.md, "Hover events").
        case hover(HoverPhase)

        public var name: String {
            switch self {
            case .began: return "began"
            case .moved: return "moved"
            case .ended: return "ended"
            case .cancelled: return "cancelled"
            case .hover: return "hover"
            }
        }
    }

    // The point first: built just before the event, it is copied into place whole.
    public var point: StrokePoint
    public var kind: Kind
    public var stroke: StrokeID
    public var device: DeviceID
    /// The device frame (`SYN_REPORT` count from 1) that produced the event.
    public var frame: UInt64
    public var slot: Int32
    public var trackingID: Int32?
    /// On `began`: what is special about the stroke.
    public var flags: ContactFlags

    public init(
        kind: Kind, stroke: StrokeID, device: DeviceID, frame: UInt64, slot: Int32, trackingID: Int32?,
        point: StrokePoint, flags: ContactFlags
    ) {
        self.kind = kind
        self.stroke = stroke
        self.device = device
        self.frame = frame
        self.slot = slot
        self.trackingID = trackingID
        self.point = point
        self.flags = flags
    }
}
