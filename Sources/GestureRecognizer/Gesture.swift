import InputCore
import StrokeTracker

/// One step of a gesture, as a recogniser returns it: what a `gesture` message carries
/// (`GestureMessage` in StrokeProtocol, docs/protocol.md "Gesture events"; docs/gestures.md for
/// each kind). A discrete gesture (`tap`, `doubleTap`) is one step with phase `end`; a continuous
/// one is a `begin`, `update`s (not for `hold`), then exactly one `end` or `cancel`, all with the
/// same `id`.
public struct Gesture: Hashable, Sendable {
    public enum Kind: Hashable, Sendable, CaseIterable {
        case tap, doubleTap, hold, swipe, edgeSwipe, pinch, rotate
    }

    public enum Phase: Hashable, Sendable, CaseIterable {
        case begin, update, end, cancel
    }

    /// Screen directions: y grows down, so `up` is towards smaller y.
    public enum Direction: Hashable, Sendable, CaseIterable {
        case up, down, left, right, upLeft, upRight, downLeft, downRight
    }

    public enum Edge: Hashable, Sendable, CaseIterable {
        case top, bottom, left, right
    }

    /// Daemon-unique (or replay-unique), the same on every phase of one gesture.
    public var id: UInt64
    public var kind: Kind
    public var phase: Phase
    public var device: DeviceID
    /// The time of the frame that produced this step; for a `hold` begin, the moment its timeout
    /// passed.
    public var time: Timestamp
    /// The strokes involved, in the order they began; `fingers` is their count (a double tap's
    /// are both taps' strokes, its `fingers` each tap's count).
    public var strokes: [StrokeID]
    /// The fingers' centroid.
    public var centroid: Position
    /// From the first finger down to this step.
    public var duration: Int64
    /// `swipe`, `edgeSwipe`: the centroid's displacement since the fingers were all down.
    public var displacement: Displacement?
    public var direction: Direction?
    /// `swipe`, `edgeSwipe`: the centroid's speed over the last `velocityWindow`, mm/s (nil
    /// without a resolution).
    public var velocity: Double?
    /// The same speed in normalised units per second.
    public var normalizedVelocity: Double?
    public var edge: Edge?
    /// `pinch`: spread now over spread at `begin`.
    public var scale: Double?
    /// `rotate`: degrees since `begin`, clockwise on screen.
    public var angle: Double?

    public var fingers: Int { kind == .doubleTap ? strokes.count / 2 : strokes.count }

    public init(
        id: UInt64, kind: Kind, phase: Phase, device: DeviceID, time: Timestamp, strokes: [StrokeID], centroid: Position,
        duration: Int64
    ) {
        self.id = id
        self.kind = kind
        self.phase = phase
        self.device = device
        self.time = time
        self.strokes = strokes
        self.centroid = centroid
        self.duration = duration
    }
}

/// A place on the device in raw units, normalised 0…1 and, with a resolution, millimetres.
public struct Position: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var nx: Double
    public var ny: Double
    public var mmX: Double?
    public var mmY: Double?

    public init(x: Double, y: Double, nx: Double, ny: Double, mmX: Double? = nil, mmY: Double? = nil) {
        self.x = x
        self.y = y
        self.nx = nx
        self.ny = ny
        self.mmX = mmX
        self.mmY = mmY
    }

    public init(_ p: StrokePoint) {
        self.init(x: Double(p.x), y: Double(p.y), nx: p.nx, ny: p.ny, mmX: p.mmX, mmY: p.mmY)
    }
}

/// A displacement, normalised and (with a resolution) in millimetres.
public struct Displacement: Hashable, Sendable {
    public var dnx: Double
    public var dny: Double
    public var dmmX: Double?
    public var dmmY: Double?

    public init(dnx: Double, dny: Double, dmmX: Double? = nil, dmmY: Double? = nil) {
        self.dnx = dnx
        self.dny = dny
        self.dmmX = dmmX
        self.dmmY = dmmY
    }
}
