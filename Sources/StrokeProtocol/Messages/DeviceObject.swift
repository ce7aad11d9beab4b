/// A device, as in `deviceAdded` and the `devices` reply (docs/protocol.md, "Device objects").
public struct DeviceObject: Codable, Sendable, Hashable {
    /// The daemon's id for the device, never reused while it runs.
    public var device: UInt32
    /// The kernel's device name.
    public var name: String
    /// `/dev/input/eventN`, or `replay:FILE` for a served recording.
    public var path: String
    public var kind: Kind
    /// Multitouch slots (1 for single-touch devices).
    public var slots: Int
    /// The kernel's input id.
    public var bustype: Int
    public var vendor: Int
    public var product: Int
    public var x: Axis
    public var y: Axis
    /// The optional axes the strokes carry (`pressure`, `touchMajor`, …, `serial`).
    public var axes: [String]
    /// Pen devices only: the tools the device declares.
    public var tools: [PointObject.Tool]?
    /// The device reports a bounding box, not fingers.
    public var semiMT: Bool
    /// The calibration matrix applied to `nx`, `ny`, when there is one (6 numbers).
    public var calibration: [Double]?

    public init(
        device: UInt32, name: String, path: String, kind: Kind, slots: Int, bustype: Int, vendor: Int, product: Int,
        x: Axis, y: Axis, axes: [String], tools: [PointObject.Tool]? = nil, semiMT: Bool, calibration: [Double]? = nil
    ) {
        self.device = device
        self.name = name
        self.path = path
        self.kind = kind
        self.slots = slots
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.x = x
        self.y = y
        self.axes = axes
        self.tools = tools
        self.semiMT = semiMT
        self.calibration = calibration
    }

    /// A position axis.
    public struct Axis: Codable, Sendable, Hashable {
        public var min: Int32
        public var max: Int32
        /// Units per millimetre; 0 when unknown.
        public var resolution: Int32

        public init(min: Int32, max: Int32, resolution: Int32) {
            self.min = min
            self.max = max
            self.resolution = resolution
        }
    }

    public enum Kind: OpenStringEnum {
        case touchscreen, touchpad
        /// A tablet's touch surface.
        case indirect
        /// A pen device on a screen.
        case penDisplay
        /// A pen tablet beside the screen.
        case tablet
        case other
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "touchscreen": self = .touchscreen
            case "touchpad": self = .touchpad
            case "indirect": self = .indirect
            case "penDisplay": self = .penDisplay
            case "tablet": self = .tablet
            case "other": self = .other
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .touchscreen: "touchscreen"
            case .touchpad: "touchpad"
            case .indirect: "indirect"
            case .penDisplay: "penDisplay"
            case .tablet: "tablet"
            case .other: "other"
            case .unknown(let name): name
            }
        }
    }
}
