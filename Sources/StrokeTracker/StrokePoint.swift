import InputCore
import MultitouchDecoder

/// One point of a stroke's polyline.
public struct StrokePoint: Hashable, Sendable {
    /// Microseconds, from the device's clock (or the recording's).
    public var time: Timestamp
    /// Raw device units.
    public var x: Int32
    public var y: Int32
    /// 0...1 across the axis range.
    public var nx: Double
    public var ny: Double
    /// Millimetres from the sensor's top-left corner; nil when the device reports no resolution.
    public var mmX: Double?
    public var mmY: Double?
    /// Raw values of the optional axes; meaningful only where the device's geometry lists them
    /// and `known` holds them.
    public var pressure: Int32
    public var touchMajor: Int32
    public var touchMinor: Int32
    public var orientation: Int32
    public var toolType: Int32
    /// Pen axes (and `ABS_MT_DISTANCE`), raw; see `ContactSample`.
    public var distance: Int32
    public var tiltX: Int32
    public var tiltY: Int32
    public var rotation: Int32
    public var wheel: Int32
    public var toolID: Int32
    public var serial: UInt32
    public var buttons: PenButtons
    /// Which values the device has reported; the others are not published.
    public var known: KnownAxes

    @inline(__always)
    public init(time: Timestamp, sample s: ContactSample, geometry g: DeviceGeometry) {
        self.time = time
        x = s.x
        y = s.y
        nx = g.normalized(x: s.x)
        ny = g.normalized(y: s.y)
        if g.calibrated { (nx, ny) = g.calibration.apply(nx, ny) }
        if let mm = g.millimetres(x: s.x, y: s.y) {
            mmX = mm.x
            mmY = mm.y
        }
        pressure = s.pressure
        touchMajor = s.touchMajor
        touchMinor = s.touchMinor
        orientation = s.orientation
        toolType = s.toolType
        distance = s.distance
        tiltX = s.tiltX
        tiltY = s.tiltY
        rotation = s.rotation
        wheel = s.wheel
        toolID = s.toolID
        serial = s.serial
        buttons = s.buttons
        known = s.known
    }

    /// The point of `s` at `time` with no derived coordinates (0, nil): what packing reads.
    init(time: Timestamp, raw s: ContactSample) {
        self.time = time
        (x, y, nx, ny) = (s.x, s.y, 0, 0)
        (pressure, touchMajor, touchMinor, orientation, toolType) = (s.pressure, s.touchMajor, s.touchMinor, s.orientation, s.toolType)
        (distance, tiltX, tiltY, rotation, wheel) = (s.distance, s.tiltX, s.tiltY, s.rotation, s.wheel)
        (toolID, serial, buttons, known) = (s.toolID, s.serial, s.buttons, s.known)
    }

    /// Its raw values.
    var sample: ContactSample {
        var s = ContactSample(
            x: x, y: y, pressure: pressure, touchMajor: touchMajor, touchMinor: touchMinor, orientation: orientation,
            toolType: toolType, known: known)
        (s.distance, s.tiltX, s.tiltY, s.rotation, s.wheel) = (distance, tiltX, tiltY, rotation, wheel)
        (s.toolID, s.serial, s.buttons) = (toolID, serial, buttons)
        return s
    }

    /// Same place and shape (time aside).
    public func samePosition(as other: StrokePoint) -> Bool {
        x == other.x && y == other.y && pressure == other.pressure && touchMajor == other.touchMajor
            && touchMinor == other.touchMinor && orientation == other.orientation && tiltX == other.tiltX
            && tiltY == other.tiltY && buttons == other.buttons
    }
}
