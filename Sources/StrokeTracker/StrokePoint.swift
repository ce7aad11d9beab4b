import InputCore
import MultitouchDecoder

/// One point of a stroke's polyline.
///
/// Its raw values are the decoder's `ContactSample`, kept whole: a point is built, copied into its
/// stroke and into a `StrokeEvent` for every motion, and a sample copies as one block where
/// seventeen fields copied one by one (docs/performance.md, "Eleventh round").
public struct StrokePoint: Hashable, Sendable {
    /// Microseconds, from the device's clock (or the recording's).
    public var time: Timestamp
    /// The raw values, device units; `sample.known` says which the device has reported.
    public var sample: ContactSample
    /// 0...1 across the axis range.
    public var nx: Double
    public var ny: Double
    /// Millimetres from the sensor's top-left corner; nil when the device reports no resolution.
    public var mmX: Double?
    public var mmY: Double?

    /// Raw device units.
    @inlinable public var x: Int32 {
        get { sample.x }
        set { sample.x = newValue }
    }
    @inlinable public var y: Int32 {
        get { sample.y }
        set { sample.y = newValue }
    }
    /// Raw values of the optional axes; meaningful only where the device's geometry lists them
    /// and `known` holds them.
    @inlinable public var pressure: Int32 {
        get { sample.pressure }
        set { sample.pressure = newValue }
    }
    @inlinable public var touchMajor: Int32 {
        get { sample.touchMajor }
        set { sample.touchMajor = newValue }
    }
    @inlinable public var touchMinor: Int32 {
        get { sample.touchMinor }
        set { sample.touchMinor = newValue }
    }
    @inlinable public var orientation: Int32 {
        get { sample.orientation }
        set { sample.orientation = newValue }
    }
    @inlinable public var toolType: Int32 {
        get { sample.toolType }
        set { sample.toolType = newValue }
    }
    /// Pen axes (and `ABS_MT_DISTANCE`), raw; see `ContactSample`.
    @inlinable public var distance: Int32 {
        get { sample.distance }
        set { sample.distance = newValue }
    }
    @inlinable public var tiltX: Int32 {
        get { sample.tiltX }
        set { sample.tiltX = newValue }
    }
    @inlinable public var tiltY: Int32 {
        get { sample.tiltY }
        set { sample.tiltY = newValue }
    }
    @inlinable public var rotation: Int32 {
        get { sample.rotation }
        set { sample.rotation = newValue }
    }
    @inlinable public var wheel: Int32 {
        get { sample.wheel }
        set { sample.wheel = newValue }
    }
    @inlinable public var toolID: Int32 {
        get { sample.toolID }
        set { sample.toolID = newValue }
    }
    @inlinable public var serial: UInt32 {
        get { sample.serial }
        set { sample.serial = newValue }
    }
    @inlinable public var buttons: PenButtons {
        get { sample.buttons }
        set { sample.buttons = newValue }
    }
    /// Which values the device has reported; the others are not published.
    @inlinable public var known: KnownAxes {
        get { sample.known }
        set { sample.known = newValue }
    }

    @inline(__always)
    public init(time: Timestamp, sample s: ContactSample, geometry g: DeviceGeometry) {
        self.time = time
        sample = s
        nx = g.normalized(x: s.x)
        ny = g.normalized(y: s.y)
        if g.calibrated { (nx, ny) = g.calibration.apply(nx, ny) }
        if let mm = g.millimetres(x: s.x, y: s.y) {
            mmX = mm.x
            mmY = mm.y
        }
    }

    /// The point of `s` at `time` with no derived coordinates (0, nil): what packing reads.
    init(time: Timestamp, raw s: ContactSample) {
        self.time = time
        sample = s
        (nx, ny) = (0, 0)
    }

    /// Same place and shape (time aside).
    public func samePosition(as other: StrokePoint) -> Bool {
        x == other.x && y == other.y && pressure == other.pressure && touchMajor == other.touchMajor
            && touchMinor == other.touchMinor && orientation == other.orientation && tiltX == other.tiltX
            && tiltY == other.tiltY && buttons == other.buttons
    }
}
