import InputCore
import MultitouchDecoder
import StrokeTracker

/// Recognises gestures in one device's strokes (docs/gestures.md): tap, double tap, hold, swipe,
/// edge swipe, pinch and rotate. Pure, like the tracker it follows: fed each frame's stroke events
/// with the frame's time, it returns gesture steps; no I/O, and no clock but the events' times.
///
/// A `hold` fires when `holdTimeout` passes with the fingers still down and still. Frames keep
/// coming while a finger moves, not while it rests, so the caller asks for `deadline` after each
/// call and, when there is one, calls `advance(to:)` at that time (the daemon from a one-shot
/// timer, a replay with each frame's time: `process` advances first).
///
/// Guarantees: every `begin` is followed by exactly one `end` or `cancel` of the same id; a
/// gesture involving a cancelled stroke is cancelled (so a device removed or a daemon stopping,
/// which cancel every stroke, cancel its gestures); ids come from the caller's counter and are
/// used once each.
public struct GestureRecognizer: Sendable {
    public let device: DeviceID
    public let configuration: GestureConfiguration
    /// Edge swipes: touchscreens only (a touchpad's edge is not the screen's).
    public let recognisesEdges: Bool
    /// Off for pens and when `configuration.enabled` is false: every call returns nothing.
    public let enabled: Bool

    let metric: Metric
    /// The device's extent in the metric's unit, for the edges.
    let width: Double
    let height: Double

    var state: State = .idle
    /// The current touch sequence's contacts, in the order their strokes began.
    var contacts: [Contact] = []
    /// When the sequence's first finger went down.
    var firstDown = Timestamp.zero
    /// When the fingers last changed (the anchors' time).
    var anchoredAt = Timestamp.zero
    /// The centroid's recent positions, for `velocity`.
    var samples = VelocitySamples()
    /// The last tap, while a second one may still make a double tap.
    var lastTap: Tap?
    /// The recogniser's own clock, which never goes back: the device's time plus `clockOffset`.
    /// A device's times can step back (a wall-clock recording across a clock change, files joined
    /// together): each step back adds to the offset, so that time stands still across it and
    /// runs on from there. Without it a sequence across the step had a negative `duration`.
    var clockOffset: Int64 = 0
    var lastTime = Timestamp(microseconds: .min)

    /// - Parameters:
    ///   - kind: the device's kind; edge swipes are recognised on touchscreens only.
    public init(device: DeviceID, geometry: DeviceGeometry, kind: DeviceKind, configuration: GestureConfiguration = .init()) {
        self.device = device
        self.configuration = configuration
        recognisesEdges = kind == .touchscreen
        enabled = configuration.enabled && !geometry.isPen && configuration.problems.isEmpty
        metric = Metric(millimetres: geometry.hasResolution)
        if geometry.hasResolution {
            width = Double(Int64(geometry.x.maximum) - Int64(geometry.x.minimum)) / Double(geometry.x.resolution)
            height = Double(Int64(geometry.y.maximum) - Int64(geometry.y.minimum)) / Double(geometry.y.resolution)
        } else {
            width = 1
            height = 1
        }
    }

    /// When `advance(to:)` must be called if no frame comes first: a hold's timeout while the
    /// fingers are down and still. Nil when nothing is waiting for time to pass.
    /// In the device's time.
    public var deadline: Timestamp? {
        ownDeadline?.adding(microseconds: -clockOffset)
    }

    /// `deadline` in the recogniser's own time.
    private var ownDeadline: Timestamp? {
        guard enabled, case .possible(lifted: false) = state else { return nil }
        return firstDown.adding(microseconds: configuration.holdTimeout)
    }

    /// Lets time pass to `time` with no frame: fires a hold whose timeout has passed.
    public mutating func advance(to time: Timestamp, ids: inout UInt64, into out: inout [Gesture]) {
        advance(toOwn: ownTime(time), ids: &ids, into: &out)
    }

    private mutating func advance(toOwn time: Timestamp, ids: inout UInt64, into out: inout [Gesture]) {
        guard let due = ownDeadline, time >= due else { return }
        fireHold(at: due, ids: &ids, into: &out)
    }

    /// The device's `time` on the recogniser's own clock (`clockOffset`).
    private mutating func ownTime(_ time: Timestamp) -> Timestamp {
        var own = time.adding(microseconds: clockOffset)
        if own < lastTime {
            let (offset, overflow) = clockOffset.addingReportingOverflow(lastTime.microseconds &- own.microseconds)
            if !overflow { clockOffset = offset }
            own = lastTime  // saturated too: never back
        }
        lastTime = own
        return own
    }

    /// One frame's stroke events (those of other devices and hover events are skipped), at the
    /// frame's `time`: first lets time pass to `time`, then applies the events.
    ///
    /// A frame that lifts fingers and puts others down is taken as the lifts, then the downs: a
    /// sequence whose last finger lifts ends before the new finger begins another. That is what
    /// a touch jump is (the tracker ends a contact that leapt and begins a new stroke in the same
    /// frame: a fast drumroll on a touchpad that reports one contact for two alternating
    /// fingers), and what a finger lifting as another lands is.
    public mutating func process(
        _ events: [StrokeEvent], time: Timestamp, ids: inout UInt64, into out: inout [Gesture]
    ) {
        events.withUnsafeBufferPointer { process($0, time: time, ids: &ids, into: &out) }
    }

    /// `process(_:time:ids:into:)` with the events read in place.
    public mutating func process(
        _ events: UnsafeBufferPointer<StrokeEvent>, time: Timestamp, ids: inout UInt64, into out: inout [Gesture]
    ) {
        guard enabled else { return }
        let time = ownTime(time)
        advance(toOwn: time, ids: &ids, into: &out)
        var change = FrameChange()
        var downs = false
        for e in events where e.device == device {
            if case .began = e.kind {
                if !GestureRecognizer.isPen(e) { downs = true }
            } else if index(of: e.stroke) != nil {
                apply(e, to: &change)
            }
        }
        if change.any { frame(change, time: time, ids: &ids, into: &out) }
        guard downs else { return }
        let known = contacts.count
        change = FrameChange()
        for e in events where e.device == device {
            // The new strokes' events only: a stroke may begin and end in one frame (a tap
            // shorter than a frame).
            if case .began = e.kind {
                if !GestureRecognizer.isPen(e) { apply(e, to: &change) }
            } else if let i = index(of: e.stroke), i >= known {
                apply(e, to: &change)
            }
        }
        frame(change, time: time, ids: &ids, into: &out)
    }

    private mutating func frame(_ change: FrameChange, time: Timestamp, ids: inout UInt64, into out: inout [Gesture]) {
        step(change, time: time, ids: &ids, into: &out)
        guard change.lifted || change.cancelled || contacts.isEmpty else { return }
        if contacts.allSatisfy({ !$0.down }) {
            contacts.removeAll(keepingCapacity: true)
        } else if case .possible = state {
            // Kept: a multi-finger tap is made of them all.
        } else {
            contacts.removeAll { !$0.down }
        }
    }

    /// What a frame changed.
    struct FrameChange {
        var added = false
        var moved = false
        var lifted = false
        var cancelled = false
        /// A stroke that was already down when decoding started (or resumed): its beginning was
        /// not seen, so its sequence gives no gesture.
        var adopted = false
        var any: Bool { added || moved || lifted || cancelled }
    }

    private mutating func apply(_ e: StrokeEvent, to change: inout FrameChange) {
        switch e.kind {
        case .began:
            contacts.append(Contact(stroke: e.stroke, at: Position(e.point)))
            change.added = true
            if e.flags.contains(.adopted) { change.adopted = true }
        case .moved:
            guard let i = index(of: e.stroke) else { return }
            contacts[i].now = Position(e.point)
            change.moved = true
        case .ended:
            guard let i = index(of: e.stroke) else { return }
            contacts[i].now = Position(e.point)
            contacts[i].down = false
            change.lifted = true
        case .cancelled:
            guard let i = index(of: e.stroke) else { return }
            contacts[i].down = false
            change.cancelled = true
        case .hover:
            return
        }
    }

    /// A multitouch pen's stroke (`MT_TOOL_PEN` in its slot) is drawing: it never joins a gesture
    /// (docs/gestures.md, "Pens get no gestures"), so none of its events reach the recogniser.
    private static func isPen(_ e: StrokeEvent) -> Bool {
        e.point.sample.known.contains(.toolType) && ToolType.isPen(e.point.toolType)
    }

    private func index(of stroke: StrokeID) -> Int? {
        // Searched from the end: the contacts of a long sequence are mostly lifted ones.
        contacts.lastIndex { $0.stroke == stroke && $0.down }
    }
}

/// A tap that a second one may turn into a double tap.
struct Tap: Sendable {
    var liftedAt: Timestamp
    var centroid: Position
    var strokes: [StrokeID]
}
