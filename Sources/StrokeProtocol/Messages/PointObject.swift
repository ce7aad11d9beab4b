/// A point's keys, as on stroke and hover events and in a stroke object's `points`
/// (docs/protocol.md, "Stroke events"). An optional key is nil when the device lacks the axis or
/// has not reported it: never 0 in its place.
public struct PointObject: Codable, Sendable, Hashable {
    /// Microseconds: the kernel timestamp of the frame.
    public var time: Int64
    /// Position in raw device units.
    public var x: Int32
    public var y: Int32
    /// Position normalised to 0…1 across the axis range (outside it when the device reports
    /// values beyond its declared range).
    public var nx: Double
    public var ny: Double
    /// Millimetres from the sensor's top-left corner, when the device reports the axis resolution.
    public var mmX: Double?
    public var mmY: Double?
    public var pressure: Int32?
    /// Pens: `pressure` mapped to 0…1 across the axis range.
    public var normalizedPressure: Double?
    public var touchMajor: Int32?
    public var touchMinor: Int32?
    public var orientation: Int32?
    public var toolType: Tool?
    /// `ABS_DISTANCE` (pens) or `ABS_MT_DISTANCE`; larger is farther.
    public var distance: Int32?
    public var tiltX: Int32?
    /// Tilt from the vertical in degrees, when the axis has a resolution and a range around 0.
    public var tiltXDegrees: Double?
    public var tiltY: Int32?
    public var tiltYDegrees: Double?
    /// `ABS_Z`: barrel rotation.
    public var rotation: Int32?
    /// `ABS_WHEEL`: an airbrush's finger wheel.
    public var wheel: Int32?
    /// The stylus buttons held; present (possibly empty) on devices with stylus buttons.
    public var buttons: [StylusButton]?
    /// `ABS_MISC`: the tool's id (Wacom).
    public var toolId: Int32?
    /// `MSC_SERIAL`: the tool's serial number.
    public var serial: UInt32?

    public init(
        time: Int64, x: Int32, y: Int32, nx: Double, ny: Double, mmX: Double? = nil, mmY: Double? = nil,
        pressure: Int32? = nil, normalizedPressure: Double? = nil, touchMajor: Int32? = nil, touchMinor: Int32? = nil,
        orientation: Int32? = nil, toolType: Tool? = nil, distance: Int32? = nil, tiltX: Int32? = nil,
        tiltXDegrees: Double? = nil, tiltY: Int32? = nil, tiltYDegrees: Double? = nil, rotation: Int32? = nil,
        wheel: Int32? = nil, buttons: [StylusButton]? = nil, toolId: Int32? = nil, serial: UInt32? = nil
    ) {
        self.time = time
        self.x = x
        self.y = y
        self.nx = nx
        self.ny = ny
        self.mmX = mmX
        self.mmY = mmY
        self.pressure = pressure
        self.normalizedPressure = normalizedPressure
        self.touchMajor = touchMajor
        self.touchMinor = touchMinor
        self.orientation = orientation
        self.toolType = toolType
        self.distance = distance
        self.tiltX = tiltX
        self.tiltXDegrees = tiltXDegrees
        self.tiltY = tiltY
        self.tiltYDegrees = tiltYDegrees
        self.rotation = rotation
        self.wheel = wheel
        self.buttons = buttons
        self.toolId = toolId
        self.serial = serial
    }

    /// `toolType`: the contact's or pen's tool. An `MT_TOOL_*` value without a name comes as its
    /// number (`unknown("3")`).
    public enum Tool: OpenStringEnum {
        case finger, pen, palm, dial, eraser, brush, pencil, airbrush
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "finger": self = .finger
            case "pen": self = .pen
            case "palm": self = .palm
            case "dial": self = .dial
            case "eraser": self = .eraser
            case "brush": self = .brush
            case "pencil": self = .pencil
            case "airbrush": self = .airbrush
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .finger: "finger"
            case .pen: "pen"
            case .palm: "palm"
            case .dial: "dial"
            case .eraser: "eraser"
            case .brush: "brush"
            case .pencil: "pencil"
            case .airbrush: "airbrush"
            case .unknown(let name): name
            }
        }
    }

    /// A stylus button in `buttons`: `BTN_STYLUS`, `BTN_STYLUS2`, `BTN_STYLUS3`.
    public enum StylusButton: OpenStringEnum {
        case stylus, stylus2, stylus3
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "stylus": self = .stylus
            case "stylus2": self = .stylus2
            case "stylus3": self = .stylus3
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .stylus: "stylus"
            case .stylus2: "stylus2"
            case .stylus3: "stylus3"
            case .unknown(let name): name
            }
        }
    }
}
