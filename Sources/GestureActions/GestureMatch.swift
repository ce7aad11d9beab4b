#if canImport(Glibc)
import Glibc
#endif
import StrokeProtocol

/// Which gestures a rule acts on. Every condition given must hold; a condition left out holds
/// for every gesture. A threshold on a value the gesture does not carry (`minDistance` without
/// millimetres, say) does not hold.
public struct GestureMatch: Sendable, Hashable {
    public typealias Kind = GestureMessage.Kind
    public typealias Phase = GestureMessage.Phase
    public typealias Direction = GestureMessage.Direction
    public typealias Edge = GestureMessage.Edge

    public var kind: Kind
    /// The phase acted on: by default `end` (the gesture is complete: a tap, a swipe's final
    /// direction, a pinch's final scale), and `begin` for `hold` (the moment the long press fires).
    public var phase: Phase
    /// Any of these finger counts (nil: any).
    public var fingers: Set<Int>?
    public var directions: Set<Direction>?
    public var edges: Set<Edge>?
    public var devices: [DeviceSelector]?
    /// `pinch`: the scale, inclusive bounds.
    public var minScale: Double?
    public var maxScale: Double?
    /// `rotate`: the angle in degrees, clockwise positive, inclusive bounds.
    public var minAngle: Double?
    public var maxAngle: Double?
    /// `swipe`, `edgeSwipe`: the centroid's displacement in mm, at least.
    public var minDistance: Double?
    /// `swipe`, `edgeSwipe`: the speed in mm/s, at least.
    public var minVelocity: Double?
    /// Microseconds since the first finger went down, inclusive bounds.
    public var minDuration: Int64?
    public var maxDuration: Int64?

    public init(kind: Kind, phase: Phase? = nil) {
        self.kind = kind
        self.phase = phase ?? GestureMatch.defaultPhase(for: kind)
    }

    /// `begin` for `hold`, `end` for every other kind.
    public static func defaultPhase(for kind: Kind) -> Phase {
        switch kind {
        case .hold: .begin
        case .tap, .doubleTap, .swipe, .edgeSwipe, .pinch, .rotate, .unknown: .end
        }
    }

    /// A device, by the daemon's id or by name (a glob: `*`, `?`, `[…]`, as `fnmatch(3)`).
    public enum DeviceSelector: Sendable, Hashable {
        case id(UInt32)
        case name(String)

        public func matches(id: UInt32, name: String?) -> Bool {
            switch self {
            case .id(let wanted): wanted == id
            case .name(let pattern): name.map { fnmatch(pattern, $0, 0) == 0 } ?? false
            }
        }
    }

    /// Whether `gesture`, from the device named `deviceName` (nil: unknown), is one this rule
    /// acts on.
    public func matches(_ gesture: GestureMessage, deviceName: String?) -> Bool {
        guard gesture.kind == kind, gesture.phase == phase else { return false }
        if let fingers, !fingers.contains(gesture.fingers) { return false }
        if let directions, !(gesture.direction.map(directions.contains) ?? false) { return false }
        if let edges, !(gesture.edge.map(edges.contains) ?? false) { return false }
        if let devices, !devices.contains(where: { $0.matches(id: gesture.device, name: deviceName) }) { return false }
        if !Self.within(gesture.scale, minScale, maxScale) { return false }
        if !Self.within(gesture.angle, minAngle, maxAngle) { return false }
        if let minDistance {
            guard let dx = gesture.dmmX, let dy = gesture.dmmY, (dx * dx + dy * dy).squareRoot() >= minDistance else {
                return false
            }
        }
        if let minVelocity {
            guard let v = gesture.velocity, v >= minVelocity else { return false }
        }
        if let minDuration, gesture.duration < minDuration { return false }
        if let maxDuration, gesture.duration > maxDuration { return false }
        return true
    }

    /// True without bounds; with one, `value` must be there and inside them.
    private static func within(_ value: Double?, _ low: Double?, _ high: Double?) -> Bool {
        guard low != nil || high != nil else { return true }
        guard let value else { return false }
        if let low, value < low { return false }
        if let high, value > high { return false }
        return true
    }
}
