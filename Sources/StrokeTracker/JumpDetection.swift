import InputCore

/// Touch jumps: firmware that keeps a contact's tracking ID while one finger lifts and another
/// lands elsewhere, so the "same" contact crosses the surface faster than a finger can.
///
/// The rule is libinput's `tp_detect_jumps()` (`src/evdev-mt-touchpad.c`). The distance from the
/// contact's previous position, in millimetres, is scaled to libinput's 12 ms reference frame
/// interval; the motion is a jump when that distance is above `thresholdMM` (libinput: 20), or
/// when it grew by more than `growthMM` (libinput: 7) since the contact's previous motion (0 for
/// the first motion of a stroke). Intervals longer than 2.5 reference frames (30 ms) are
/// irregular frames: never a jump, and they leave the previous distance as it was, as in
/// libinput. So are intervals shorter than 2 ms (libinput: only 0): no touch device scans that
/// fast, so such frames were delivered together, and their timestamps say when they arrived, not
/// how fast the finger moved (scaled by a few microseconds, a 0.1 mm step was a "jump"; libinput
/// sets its reference interval to the measured one for its uinput test devices for the same
/// reason). Without a resolution on both axes there are no millimetres and nothing is a jump.
///
/// The tracker ends the stroke at its last believable point and begins a new stroke, flagged
/// `jump`, at the new position (docs/decoder.md, "Touch jumps").
public struct JumpDetection: Hashable, Sendable {
    /// Distance per reference frame above which motion is a jump, in millimetres.
    public var thresholdMM: Double
    /// Growth of that distance since the previous motion above which motion is a jump.
    public var growthMM: Double

    /// libinput's reference frame interval: its thresholds were measured at 12 ms.
    public static let referenceInterval: Int64 = 12_000
    /// Frames further apart than this (2.5 reference intervals) are never a jump.
    public static let longestInterval: Int64 = 30_000
    /// Frames closer than this (a sixth of the reference interval) came together: never a jump.
    public static let shortestInterval: Int64 = 2_000
    /// libinput's threshold.
    public static let libinput = JumpDetection(thresholdMM: 20, growthMM: 7)

    public init(thresholdMM: Double, growthMM: Double = 7) {
        self.thresholdMM = thresholdMM
        self.growthMM = growthMM
    }

    /// The default for a kind of device: on for touchpads (libinput's rule, where the jumps were
    /// seen), off for everything else. On a touchscreen the reported position is where the finger
    /// is on the display, and a real flick can cross 20 mm in 12 ms (1.7 m/s); a tablet's finger
    /// interface (`indirect`, Wacom in practice) is excluded by libinput too, and a pen is not a
    /// finger: libinput has no jump rule for tablet tools.
    public static func defaultFor(_ kind: DeviceKind) -> JumpDetection? {
        switch kind {
        case .touchpad: return .libinput
        case .touchscreen, .indirect, .penDisplay, .tablet, .other: return nil
        }
    }

    /// What a motion from `previous` to `next` is.
    public enum Verdict: Hashable, Sendable {
        /// Believable motion, with its distance per reference frame (the next call's `lastDistance`).
        case motion(distanceMM: Double)
        /// An irregular interval (or no millimetres): not judged; keep the last distance.
        case unjudged
        case jump
    }

    /// Judges moving from `previous` to `next` on a device of `geometry`, where `lastDistance` is
    /// the distance per reference frame of the contact's previous motion (0 for its first).
    @inline(__always)
    public func judge(
        from previous: StrokePoint, to next: StrokePoint, lastDistance: Double, geometry: DeviceGeometry
    ) -> Verdict {
        judge(from: (previous.time, previous.x, previous.y), to: (next.time, next.x, next.y), lastDistance: lastDistance,
              geometry: geometry)
    }

    /// `judge(from:to:lastDistance:geometry:)` from the points' times and raw positions.
    @inline(__always)
    func judge(
        from previous: (time: Timestamp, x: Int32, y: Int32), to next: (time: Timestamp, x: Int32, y: Int32),
        lastDistance: Double, geometry: DeviceGeometry
    ) -> Verdict {
        guard geometry.hasResolution else { return .unjudged }
        let interval = next.time.microseconds - previous.time.microseconds
        guard interval >= Self.shortestInterval, interval <= Self.longestInterval else { return .unjudged }
        let dx = Double(Int64(next.x) - Int64(previous.x)) / Double(geometry.x.resolution)
        let dy = Double(Int64(next.y) - Int64(previous.y)) / Double(geometry.y.resolution)
        let distance = (dx * dx + dy * dy).squareRoot() * Double(Self.referenceInterval) / Double(interval)
        if distance > thresholdMM || distance - lastDistance > growthMM { return .jump }
        return .motion(distanceMM: distance)
    }
}

/// How a device's jump detection is configured: its kind's default, off, or a threshold.
public enum JumpSetting: Hashable, Sendable {
    case deviceDefault
    case off
    case thresholdMM(Double)

    /// `default`, `off`, or a threshold in millimetres (a positive number), as the command line
    /// and the configuration file spell it.
    public init?(text: String) {
        switch text {
        case "default": self = .deviceDefault
        case "off": self = .off
        default:
            // Plain decimals: `Double` also reads "0x10" (16), "1e1" and "inf".
            guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let mm = Double(text), mm > 0 else { return nil }
            self = .thresholdMM(mm)
        }
    }

    /// The detection this setting gives a device of `kind`.
    public func detection(for kind: DeviceKind) -> JumpDetection? {
        switch self {
        case .deviceDefault: return JumpDetection.defaultFor(kind)
        case .off: return nil
        case .thresholdMM(let mm): return JumpDetection(thresholdMM: mm)
        }
    }
}
