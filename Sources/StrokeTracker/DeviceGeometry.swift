import InputCore

/// What the tracker needs to know of a device to turn raw samples into points: axis ranges for
/// normalising, resolutions for millimetres, and which optional axes it reports.
public struct DeviceGeometry: Hashable, Sendable {
    public struct Axes: OptionSet, Hashable, Sendable {
        public var rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let pressure = Axes(rawValue: 1 << 0)
        public static let touchMajor = Axes(rawValue: 1 << 1)
        public static let touchMinor = Axes(rawValue: 1 << 2)
        public static let orientation = Axes(rawValue: 1 << 3)
        public static let toolType = Axes(rawValue: 1 << 4)
        public static let distance = Axes(rawValue: 1 << 5)
        public static let tiltX = Axes(rawValue: 1 << 6)
        public static let tiltY = Axes(rawValue: 1 << 7)
        public static let rotation = Axes(rawValue: 1 << 8)
        public static let wheel = Axes(rawValue: 1 << 9)
        public static let buttons = Axes(rawValue: 1 << 10)
        public static let toolID = Axes(rawValue: 1 << 11)
        public static let serial = Axes(rawValue: 1 << 12)
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
            if d.has(.abs, AbsCode.mtDistance) { axes.insert(.distance) }
        } else if d.has(.abs, AbsCode.pressure) {
            axes.insert(.pressure)
        }
        isPen = d.touchProtocol == .tool
        if isPen {
            axes.insert(.toolType)
            if d.has(.abs, AbsCode.distance) { axes.insert(.distance) }
            if d.has(.abs, AbsCode.tiltX) { axes.insert(.tiltX) }
            if d.has(.abs, AbsCode.tiltY) { axes.insert(.tiltY) }
            if d.has(.abs, AbsCode.z) { axes.insert(.rotation) }
            if d.has(.abs, AbsCode.wheel) { axes.insert(.wheel) }
            if (KeyCode.btnStylus3...KeyCode.btnStylus2).contains(where: { $0 != KeyCode.btnTouch && d.has(.key, $0) }) {
                axes.insert(.buttons)
            }
            if d.has(.abs, AbsCode.misc) { axes.insert(.toolID) }
            if d.has(.msc, MscCode.serial) { axes.insert(.serial) }
            pressureInfo = d.absInfo[AbsCode.pressure]
            tiltXInfo = d.absInfo[AbsCode.tiltX]
            tiltYInfo = d.absInfo[AbsCode.tiltY]
        }
        self.axes = axes
        jumpDetection = JumpDetection.defaultFor(d.kind)
        xScale = x.maximum > x.minimum ? 1 / (Double(x.maximum) - Double(x.minimum)) : 0
        yScale = y.maximum > y.minimum ? 1 / (Double(y.maximum) - Double(y.minimum)) : 0
    }

    var xScale: Double
    var yScale: Double
    /// A pen device (`TouchProtocol.tool`).
    public private(set) var isPen = false
    var pressureInfo: AbsInfo?
    var tiltXInfo: AbsInfo?
    var tiltYInfo: AbsInfo?

    /// Pressure mapped to 0...1 across its range, for pens (nil without a usable range).
    public func normalizedPressure(_ raw: Int32) -> Double? {
        guard let p = pressureInfo, p.maximum > p.minimum else { return nil }
        return Double(Int64(raw) - Int64(p.minimum)) / Double(Int64(p.maximum) - Int64(p.minimum))
    }

    /// Tilt in degrees from the vertical, where the axis says how: a resolution (units per radian,
    /// the kernel's convention for angular axes, `input.h` "struct input_absinfo") on a range
    /// around 0. Nil otherwise: libinput then assumes Wacom's ±64°, which we do not invent.
    public func tiltDegrees(x raw: Int32) -> Double? { PenAngle.degrees(raw, tiltXInfo) }
    public func tiltDegrees(y raw: Int32) -> Double? { PenAngle.degrees(raw, tiltYInfo) }

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


enum PenAngle {
    static func degrees(_ raw: Int32, _ info: AbsInfo?) -> Double? {
        guard let info, info.resolution > 0, info.minimum < 0, info.maximum > 0 else { return nil }
        return Double(raw) / Double(info.resolution) * 180 / Double.pi
    }
}
