import InputCore

/// What `strokes render` draws: devices and their strokes, gathered from a recording
/// (`RenderScene+Replay.swift`) or a running daemon (`RenderScene+Protocol.swift`). Plain data: the
/// SVG comes from `SVGRenderer`.
public struct RenderScene: Sendable {
    /// A device, as much as the picture needs of it.
    public struct Device: Hashable, Sendable {
        public var id: UInt32
        public var name: String
        /// `touchscreen`, `touchpad`, `indirect` or `other` (as in the protocol's device objects).
        public var kind: String
        /// The position axes (raw units); `resolution` is units per mm, 0 when unknown.
        public var x: AbsInfo
        public var y: AbsInfo
        public var hasPressure: Bool
        public var hasTouchMajor: Bool
        /// False when the source no longer describes the device (a daemon's removed device): its
        /// axes then come from the strokes' own extent.
        public var described: Bool

        public init(
            id: UInt32, name: String, kind: String, x: AbsInfo, y: AbsInfo, hasPressure: Bool, hasTouchMajor: Bool,
            described: Bool = true
        ) {
            self.id = id
            self.name = name
            self.kind = kind
            self.x = x
            self.y = y
            self.hasPressure = hasPressure
            self.hasTouchMajor = hasTouchMajor
            self.described = described
        }
    }

    /// One sample of a stroke. Optional axes are nil when the device does not report them.
    public struct Point: Hashable, Sendable {
        /// Microseconds, on the source's clock.
        public var time: Int64
        public var x: Int32
        public var y: Int32
        public var pressure: Int32?
        public var touchMajor: Int32?
        public var touchMinor: Int32?
        public var orientation: Int32?

        public init(
            time: Int64, x: Int32, y: Int32, pressure: Int32? = nil, touchMajor: Int32? = nil, touchMinor: Int32? = nil,
            orientation: Int32? = nil
        ) {
            self.time = time
            self.x = x
            self.y = y
            self.pressure = pressure
            self.touchMajor = touchMajor
            self.touchMinor = touchMinor
            self.orientation = orientation
        }

        /// Same place and shape, time aside: the tracker's rule for whether a lift adds a point.
        func samePosition(as o: Point) -> Bool {
            x == o.x && y == o.y && pressure == o.pressure && touchMajor == o.touchMajor && touchMinor == o.touchMinor
                && orientation == o.orientation
        }
    }

    public enum State: Hashable, Sendable {
        case ended
        case cancelled(reason: String)
        case inProgress
    }

    public struct Stroke: Hashable, Sendable {
        public var id: UInt64
        public var device: UInt32
        public var slot: Int32
        public var state: State
        /// As on `began`: `adopted`, `semiMT`, ….
        public var flags: [String]
        public var points: [Point]
        /// The stroke began before the picture's time window: its first point is not its beginning.
        public var clippedStart = false
        /// When the finger lifted or the stroke was cancelled, where known. A lift where the finger
        /// already was adds no point, so this can be later than the last point.
        public var endTime: Int64?

        /// The last moment the picture knows of the stroke.
        public var lastTime: Int64 { max(endTime ?? .min, points[points.count - 1].time) }

        public init(id: UInt64, device: UInt32, slot: Int32, state: State, flags: [String] = [], points: [Point]) {
            self.id = id
            self.device = device
            self.slot = slot
            self.state = state
            self.flags = flags
            self.points = points
        }
    }

    /// A tool hovering (pen in proximity, or a contact that reports a distance), from proximity
    /// in to proximity out: drawn only when asked (`SVGRenderer.Options.hover`).
    public struct HoverTrace: Hashable, Sendable {
        public var device: UInt32
        public var points: [Point]

        public init(device: UInt32, points: [Point]) {
            self.device = device
            self.points = points
        }
    }

    /// Names the source in the picture's title (a file name, or the socket path).
    public var title: String
    /// Ordered by id.
    public var devices: [Device]
    /// Ordered by id (so by beginning).
    public var strokes: [Stroke]
    /// Time zero for `--from`/`--to` and the legend, in µs: the recording's first event, or the
    /// earliest point a daemon gave.
    public var origin: Int64
    /// Hover traces, in order of proximity in (recordings only: a daemon's history has none).
    public var hover: [HoverTrace] = []

    public init(title: String, devices: [Device], strokes: [Stroke], origin: Int64? = nil) {
        self.title = title
        self.devices = devices.sorted { $0.id < $1.id }
        self.strokes = strokes.sorted { $0.id < $1.id }
        self.origin = origin ?? self.strokes.lazy.compactMap { $0.points.first?.time }.min() ?? 0
    }
}
