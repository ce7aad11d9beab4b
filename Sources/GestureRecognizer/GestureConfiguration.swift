/// The recogniser's thresholds (docs/gestures.md, "Thresholds", gives each one's source). Lengths
/// are in millimetres on a device with a resolution on both axes, else in normalised units (the
/// fraction of an axis's range: `Length.normalized`); times in microseconds.
///
/// Defaults come from Android's `ViewConfiguration` (1 dp = 1/160 inch = 0.159 mm) and
/// Chromium's `ui/events/gesture_detection/gesture_configuration.cc`; the normalised fallbacks are
/// ours, sized for a device about 150 mm across.
public struct GestureConfiguration: Hashable, Sendable {
    /// A length in millimetres, and what to use instead on a device without a resolution.
    public struct Length: Hashable, Sendable {
        public var mm: Double
        public var normalized: Double
        public init(mm: Double, normalized: Double) {
            self.mm = mm
            self.normalized = normalized
        }
    }

    /// Off: no gestures from the device.
    public var enabled = true
    /// A finger that moves farther than this from where it went down is not tapping or holding.
    /// Android `TOUCH_SLOP` 8 dp.
    public var touchSlop = Length(mm: 1.27, normalized: 0.01)
    /// Fingers down and still this long are a `hold` (and no longer a tap). Android
    /// `LONG_PRESS_TIMEOUT` 400 ms (500 before Android 12).
    public var holdTimeout: Int64 = 400_000
    /// A second tap that goes down at most this long after the first one's last finger lifted
    /// makes a `doubleTap`. Android `DOUBLE_TAP_TIMEOUT` 300 ms.
    public var doubleTapTimeout: Int64 = 300_000
    /// …and at least this long: quicker is a bounce. Android `DOUBLE_TAP_MIN_TIME` 40 ms.
    public var doubleTapMinTime: Int64 = 40_000
    /// …and with its centroid at most this far from the first's. Android `DOUBLE_TAP_SLOP` 100 dp.
    public var doubleTapSlop = Length(mm: 15.9, normalized: 0.1)
    /// Fingers that land within this time of the previous one join the gesture: a swipe, pinch or
    /// rotate is recognised only this long after the last finger went down (or as a finger lifts).
    /// libinput's `DEFAULT_GESTURE_SWITCH_TIMEOUT` (touchpad gestures) and Android's `TAP_TIMEOUT`,
    /// both 100 ms.
    public var settleTime: Int64 = 100_000
    /// A `swipe` starts when the centroid has moved this far… Android `PAGING_TOUCH_SLOP`
    /// (2 × `TOUCH_SLOP`, 16 dp).
    public var swipeDistance = Length(mm: 2.54, normalized: 0.02)
    /// …at this speed or more (per second). Android `MINIMUM_FLING_VELOCITY` 50 dp/s.
    public var swipeMinimumVelocity = Length(mm: 7.95, normalized: 0.05)
    /// `velocity` is the centroid's speed over this much of its latest movement. Android
    /// `VelocityTracker`'s horizon, 100 ms.
    public var velocityWindow: Int64 = 100_000
    /// 4 (up, down, left, right) or 8 (and the diagonals).
    public var directions = 4
    /// A `pinch` starts when the fingers' span (twice their mean distance from the centroid)
    /// has changed by this much… Android `ScaleGestureDetector`'s span slop, 2 × `TOUCH_SLOP`.
    public var spanSlop = Length(mm: 2.54, normalized: 0.02)
    /// …and pinch and rotate need the span to be at least this: closer fingers give no reliable
    /// scale or angle. Android `config_minScalingSpan` 27 mm.
    public var minimumSpan = Length(mm: 27, normalized: 0.15)
    /// A `rotate` starts when the fingers have turned this many degrees around their centroid.
    /// Our choice (neither Android nor Chromium recognises rotation).
    public var rotateAngle = 15.0
    /// An `edgeSwipe` starts with its first finger this close to a touchscreen's edge. Our choice:
    /// Android's `EDGE_SLOP` (12 dp, 1.9 mm) is a view's edge, and a finger swiping in from a
    /// bezel lands a few millimetres inside it.
    public var edgeMargin = Length(mm: 5, normalized: 0.03)
    /// Taps, holds, swipes, pinches and rotations of more fingers than this are not recognised.
    public var maxFingers = 5

    public init() {}

    /// The problems with these values, one sentence each (empty when they are usable).
    public var problems: [String] {
        var out: [String] = []
        func positive(_ name: String, _ l: Length) {
            if !(l.mm >= 0 && l.mm.isFinite && l.normalized >= 0 && l.normalized.isFinite) {
                out.append("\(name) must be a finite length of 0 or more")
            }
        }
        positive("touchSlop", touchSlop)
        positive("doubleTapSlop", doubleTapSlop)
        positive("swipeDistance", swipeDistance)
        positive("swipeMinimumVelocity", swipeMinimumVelocity)
        positive("spanSlop", spanSlop)
        positive("minimumSpan", minimumSpan)
        positive("edgeMargin", edgeMargin)
        if holdTimeout <= 0 { out.append("holdTimeout must be more than 0") }
        if doubleTapTimeout < 0 || doubleTapMinTime < 0 { out.append("doubleTapTimeout and doubleTapMinTime must be 0 or more") }
        if settleTime < 0 { out.append("settleTime must be 0 or more") }
        if velocityWindow <= 0 { out.append("velocityWindow must be more than 0") }
        if directions != 4 && directions != 8 { out.append("directions must be 4 or 8") }
        if !(rotateAngle > 0 && rotateAngle < 180) { out.append("rotateAngle must be between 0 and 180 degrees") }
        if maxFingers < 1 { out.append("maxFingers must be 1 or more") }
        return out
    }
}
