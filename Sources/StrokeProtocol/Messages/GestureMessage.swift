/// A `gesture` event (docs/protocol.md, "Gesture events"; docs/gestures.md for each kind's
/// definition): one step of a gesture recognised from one device's strokes. Sent only to clients
/// that list `gesture` in `subscribe.events` (feature `gestures`). Not numbered: no `seq`, not
/// resumable, like `hover`.
///
/// A discrete gesture (`tap`, `doubleTap`) is one message with phase `end`. A continuous one
/// (`hold`, `swipe`, `edgeSwipe`, `pinch`, `rotate`) is a `begin` when it is recognised, `update`s
/// while it goes on (not for `hold`), and exactly one `end` or `cancel`, all with the same
/// `gesture` id.
public struct GestureMessage: Codable, Sendable, Hashable {
    /// Daemon-unique id of the gesture, the same on every phase of it.
    public var gesture: UInt64
    public var kind: Kind
    public var phase: Phase
    public var device: UInt32
    /// Microseconds: the kernel timestamp of the frame that produced this step.
    public var time: Int64
    /// Fingers involved.
    public var fingers: Int
    /// The ids of the strokes involved, in the order they began.
    public var strokes: [UInt64]
    /// The fingers' centroid in raw device units, normalised (0…1) and, with a resolution, in mm.
    public var x: Double
    public var y: Double
    public var nx: Double
    public var ny: Double
    public var mmX: Double?
    public var mmY: Double?
    /// Microseconds from the first finger down to this step.
    public var duration: Int64
    /// The centroid's displacement since the fingers went down, normalised and (with a resolution)
    /// in mm. `swipe`, `edgeSwipe`.
    public var dnx: Double?
    public var dny: Double?
    public var dmmX: Double?
    public var dmmY: Double?
    /// `swipe`, `edgeSwipe`: the direction of the displacement.
    public var direction: Direction?
    /// `swipe`, `edgeSwipe`: the centroid's speed over the last movement, mm/s (nil without a
    /// resolution; then `normalizedVelocity`).
    public var velocity: Double?
    /// The same speed in normalised units (the axis ranges) per second.
    public var normalizedVelocity: Double?
    /// `edgeSwipe`: the edge it started from.
    public var edge: Edge?
    /// `pinch`: the fingers' spread now over their spread at `begin` (> 1 spreading apart).
    public var scale: Double?
    /// `rotate`: degrees turned since `begin`, clockwise as seen on the screen (y grows down).
    public var angle: Double?

    public init(
        gesture: UInt64, kind: Kind, phase: Phase, device: UInt32, time: Int64, fingers: Int, strokes: [UInt64],
        x: Double, y: Double, nx: Double, ny: Double, mmX: Double? = nil, mmY: Double? = nil, duration: Int64,
        dnx: Double? = nil, dny: Double? = nil, dmmX: Double? = nil, dmmY: Double? = nil,
        direction: Direction? = nil, velocity: Double? = nil, normalizedVelocity: Double? = nil, edge: Edge? = nil,
        scale: Double? = nil, angle: Double? = nil
    ) {
        self.gesture = gesture
        self.kind = kind
        self.phase = phase
        self.device = device
        self.time = time
        self.fingers = fingers
        self.strokes = strokes
        self.x = x
        self.y = y
        self.nx = nx
        self.ny = ny
        self.mmX = mmX
        self.mmY = mmY
        self.duration = duration
        self.dnx = dnx
        self.dny = dny
        self.dmmX = dmmX
        self.dmmY = dmmY
        self.direction = direction
        self.velocity = velocity
        self.normalizedVelocity = normalizedVelocity
        self.edge = edge
        self.scale = scale
        self.angle = angle
    }

    public enum Kind: OpenStringEnum {
        case tap, doubleTap, hold, swipe, edgeSwipe, pinch, rotate
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "tap": self = .tap
            case "doubleTap": self = .doubleTap
            case "hold": self = .hold
            case "swipe": self = .swipe
            case "edgeSwipe": self = .edgeSwipe
            case "pinch": self = .pinch
            case "rotate": self = .rotate
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .tap: "tap"
            case .doubleTap: "doubleTap"
            case .hold: "hold"
            case .swipe: "swipe"
            case .edgeSwipe: "edgeSwipe"
            case .pinch: "pinch"
            case .rotate: "rotate"
            case .unknown(let name): name
            }
        }
    }

    public enum Phase: OpenStringEnum {
        case begin, update, end, cancel
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "begin": self = .begin
            case "update": self = .update
            case "end": self = .end
            case "cancel": self = .cancel
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .begin: "begin"
            case .update: "update"
            case .end: "end"
            case .cancel: "cancel"
            case .unknown(let name): name
            }
        }
    }

    /// Screen directions: y grows down, so `up` is towards smaller y.
    public enum Direction: OpenStringEnum {
        case up, down, left, right, upLeft, upRight, downLeft, downRight
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "up": self = .up
            case "down": self = .down
            case "left": self = .left
            case "right": self = .right
            case "upLeft": self = .upLeft
            case "upRight": self = .upRight
            case "downLeft": self = .downLeft
            case "downRight": self = .downRight
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .up: "up"
            case .down: "down"
            case .left: "left"
            case .right: "right"
            case .upLeft: "upLeft"
            case .upRight: "upRight"
            case .downLeft: "downLeft"
            case .downRight: "downRight"
            case .unknown(let name): name
            }
        }
    }

    public enum Edge: OpenStringEnum {
        case top, bottom, left, right
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "top": self = .top
            case "bottom": self = .bottom
            case "left": self = .left
            case "right": self = .right
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .top: "top"
            case .bottom: "bottom"
            case .left: "left"
            case .right: "right"
            case .unknown(let name): name
            }
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: MessageKey.self)
        gesture = try c.decode(UInt64.self, forKey: "gesture")
        kind = try c.decode(Kind.self, forKey: "kind")
        phase = try c.decode(Phase.self, forKey: "phase")
        device = try c.decode(UInt32.self, forKey: "device")
        time = try c.decode(Int64.self, forKey: "time")
        fingers = try c.decode(Int.self, forKey: "fingers")
        strokes = try c.decode([UInt64].self, forKey: "strokes")
        x = try c.decode(Double.self, forKey: "x")
        y = try c.decode(Double.self, forKey: "y")
        nx = try c.decode(Double.self, forKey: "nx")
        ny = try c.decode(Double.self, forKey: "ny")
        mmX = try c.decodeIfPresent(Double.self, forKey: "mmX")
        mmY = try c.decodeIfPresent(Double.self, forKey: "mmY")
        duration = try c.decode(Int64.self, forKey: "duration")
        dnx = try c.decodeIfPresent(Double.self, forKey: "dnx")
        dny = try c.decodeIfPresent(Double.self, forKey: "dny")
        dmmX = try c.decodeIfPresent(Double.self, forKey: "dmmX")
        dmmY = try c.decodeIfPresent(Double.self, forKey: "dmmY")
        direction = try c.decodeIfPresent(Direction.self, forKey: "direction")
        velocity = try c.decodeIfPresent(Double.self, forKey: "velocity")
        normalizedVelocity = try c.decodeIfPresent(Double.self, forKey: "normalizedVelocity")
        edge = try c.decodeIfPresent(Edge.self, forKey: "edge")
        scale = try c.decodeIfPresent(Double.self, forKey: "scale")
        angle = try c.decodeIfPresent(Double.self, forKey: "angle")
    }

    /// Keys in the order the daemon writes them.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: MessageKey.self)
        try c.encode("gesture", forKey: .type)
        try c.encode(gesture, forKey: "gesture")
        try c.encode(kind, forKey: "kind")
        try c.encode(phase, forKey: "phase")
        try c.encode(device, forKey: "device")
        try c.encode(time, forKey: "time")
        try c.encode(fingers, forKey: "fingers")
        try c.encode(strokes, forKey: "strokes")
        try c.encode(x, forKey: "x")
        try c.encode(y, forKey: "y")
        try c.encode(nx, forKey: "nx")
        try c.encode(ny, forKey: "ny")
        try c.encodeIfPresent(mmX, forKey: "mmX")
        try c.encodeIfPresent(mmY, forKey: "mmY")
        try c.encode(duration, forKey: "duration")
        try c.encodeIfPresent(dnx, forKey: "dnx")
        try c.encodeIfPresent(dny, forKey: "dny")
        try c.encodeIfPresent(dmmX, forKey: "dmmX")
        try c.encodeIfPresent(dmmY, forKey: "dmmY")
        try c.encodeIfPresent(direction, forKey: "direction")
        try c.encodeIfPresent(velocity, forKey: "velocity")
        try c.encodeIfPresent(normalizedVelocity, forKey: "normalizedVelocity")
        try c.encodeIfPresent(edge, forKey: "edge")
        try c.encodeIfPresent(scale, forKey: "scale")
        try c.encodeIfPresent(angle, forKey: "angle")
    }
}
