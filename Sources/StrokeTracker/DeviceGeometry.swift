import InputCore

/// What the tracker needs to know of a device to turn raw samples into points: axis ranges for
/// normalising, resolutions for millimetres, and which optional axes it reports.
public struct DeviceGeometry: Hashable, Sendable {
    public struct Axes: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let pressure = Axes(rawValue: 1 << 0)
        public static let touchMajor = Axes(rawValue: 1 << 1)
        public static let touchMinor = Axes(rawValue: 1 << 2)
        public static let orientation = Axes(rawValue: 1 << 3)
        public static let toolType = Axes(rawValue: 1 << 4)
    }

    public var x: AbsInfo
    public var y: AbsInfo
    public var axes: Axes
    /// Applied to normalised coordinates (`nx`, `ny`); identity unless configured.
    public var calibration = Calibration.identity {
        didSet { calibrated = !calibration.isIdentity }
    }
    /// Cached `!calibration.isIdentity`, for the per-point path.
    public private(set) var calibrated = false
    /// When set, a contact that moves farther in one frame than a finger can is split into two
    /// strokes. The default depends on the device's kind (`JumpDetection.defaultFor`).
    public var jumpDetection: JumpDetection?

    /// Geometry of a device as the decoder reads it: MT axes for slotted devices, `ABS_X`/`ABS_Y`
    /// for single-touch ones.
    public init(description d: DeviceDescription) {
        let slotted = d.touchProtocol == .slots
        let xCode = slotted ? AbsCode.mtPositionX : AbsCode.x
        let yCode = slotted ? AbsCode.mtPositionY : AbsCode.y
        x = d.absInfo[xCode] ?? AbsInfo(minimum: 0, maximum: 0)
        y = d.absInfo[yCode] ?? AbsInfo(minimum: 0, maximum: 0)
        var axes: Axes = []
        if slotted {
            if d.has(.abs, AbsCode.mtPressure) { axes.insert(.pressure) }
            if d.has(.abs, AbsCode.mtTouchMajor) { axes.insert(.touchMajor) }
            if d.has(.abs, AbsCode.mtTouchMinor) { axes.insert(.touchMinor) }
            if d.has(.abs, AbsCode.mtOrientation) { axes.insert(.orientation) }
            if d.has(.abs, AbsCode.mtToolType) { axes.insert(.toolType) }
        } else if d.has(.abs, AbsCode.pressure) {
            axes.insert(.pressure)
        }
        self.axes = axes
        jumpDetection = JumpDetection.defaultFor(d.kind)
        xScale = x.maximum > x.minimum ? 1 / Double(x.maximum - x.minimum) : 0
        yScale = y.maximum > y.minimum ? 1 / Double(y.maximum - y.minimum) : 0
    }

    var xScale: Double
    var yScale: Double

    /// Whether both position axes have a resolution, so millimetres are known.
    public var hasResolution: Bool { x.resolution > 0 && y.resolution > 0 }

    /// `raw` mapped to 0...1 across the axis range (values outside the range map outside it).
    public func normalized(x raw: Int32) -> Double { Double(Int64(raw) - Int64(x.minimum)) * xScale }
    public func normalized(y raw: Int32) -> Double { Double(Int64(raw) - Int64(y.minimum)) * yScale }

    /// Millimetres from the sensor's top-left corner (libinput's convention), when known.
    public func millimetres(x rawX: Int32, y rawY: Int32) -> (x: Double, y: Double)? {
        guard hasResolution else { return nil }
        return (
            Double(Int64(rawX) - Int64(x.minimum)) / Double(x.resolution),
            Double(Int64(rawY) - Int64(y.minimum)) / Double(y.resolution)
        )
    }
}

