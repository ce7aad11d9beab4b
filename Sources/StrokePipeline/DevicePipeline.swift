import InputCore
import MultitouchDecoder
import StrokeTracker

/// One device's way from frames to stroke events: its decoder, its frame count and last time, and
/// what the decoder met (`diagnostics`), driving the tracker it is given. Used by the daemon's
/// `Hub`, `strokes replay` and `strokes render`, so the three decode and track alike.
///
/// The tracker is not the pipeline's: it is shared by every device (stroke ids are unique across
/// devices, touch arbitration spans a device group), so each call takes it `inout`. Pure: frames
/// in, stroke events out; no I/O, no clock.
public struct DevicePipeline: Sendable {
    public let id: DeviceID
    public let description: DeviceDescription
    public private(set) var decoder: MultitouchDecoder
    /// `SYN_REPORT`s processed (the `frame` of stroke events).
    public private(set) var frames: UInt64 = 0
    /// The time of the last frame, drop marker or state report.
    public private(set) var lastTime = Timestamp.zero
    /// The decoder's contact events of the call, for the tracker to read in place.
    private var contacts = EventBuffer<ContactEvent>(capacity: 16)

    /// Adds the device to `tracker` with `geometry`.
    ///
    /// - Throws: `DecoderError` when the device cannot be decoded (`DeviceDescription.touchDecoding`).
    public init(
        id: DeviceID, description: DeviceDescription, geometry: DeviceGeometry, tracker: inout StrokeTracker
    ) throws(DecoderError) {
        decoder = try MultitouchDecoder(description: description)
        self.id = id
        self.description = description
        tracker.addDevice(id, geometry: geometry)
    }

    /// Counts of what the decoder met and handled, since the device was added.
    public var diagnostics: DecoderDiagnostics { decoder.diagnostics }

    /// What the decoder met during the last call, the first of each kind: for the caller to log.
    public var reports: [DecoderDiagnostic] { decoder.reports }

    /// Decodes one frame or drop marker and tracks its contacts, appending stroke events to `out`.
    /// Returns whether the decoder reported something (`reports`).
    @discardableResult
    public mutating func process(_ input: FrameInput, tracker: inout StrokeTracker, into out: inout EventBuffer<StrokeEvent>) -> Bool {
        startContacts()
        decoder.process(input, into: &contacts)
        if case .frame = input { frames += 1 }
        return track(at: input.time, tracker: &tracker, into: &out)
    }

    /// Decodes one frame read in place (`FrameAssembler.feed(_:_:)`) or drop marker and tracks its
    /// contacts, appending stroke events to `out`: the same as `process(_:tracker:into:)` without
    /// the frame's copy. Returns whether the decoder reported something (`reports`).
    @discardableResult
    public mutating func process(_ input: FrameViewInput, tracker: inout StrokeTracker, into out: inout EventBuffer<StrokeEvent>) -> Bool {
        startContacts()
        decoder.process(input, into: &contacts)
        if case .frame = input { frames += 1 }
        return track(at: input.time, tracker: &tracker, into: &out)
    }

    /// Decodes a state report (libevdev's resync, or the seed of a device just opened). Returns
    /// whether the decoder reported something (`reports`).
    @discardableResult
    public mutating func process(
        _ frame: Frame, origin: FrameOrigin, tracker: inout StrokeTracker, into out: inout EventBuffer<StrokeEvent>
    ) -> Bool {
        startContacts()
        decoder.process(frame, origin: origin, into: &contacts)
        return track(at: frame.time, tracker: &tracker, into: &out)
    }

    /// The step every `process` ends with: the decoded contacts to the tracker, at `time`.
    private mutating func track(at time: Timestamp, tracker: inout StrokeTracker, into out: inout EventBuffer<StrokeEvent>) -> Bool {
        lastTime = time
        applyContacts(tracker: &tracker, into: &out)
        return !decoder.reports.isEmpty
    }

    /// Empties the contact events for the next call.
    @inline(__always)
    private mutating func startContacts() {
        contacts.removeAll()
    }

    /// The call's contact events to the tracker.
    @inline(__always)
    private func applyContacts(tracker: inout StrokeTracker, into out: inout EventBuffer<StrokeEvent>) {
        guard !contacts.isEmpty else { return }
        contacts.withUnsafeBufferPointer { tracker.apply($0, device: id, frame: frames, into: &out) }
    }

    /// Starts the device over as it was when added (a looped replay's next round): its strokes in
    /// progress are cancelled with `reason`, and its decoder forgets every slot, the current slot
    /// and the tool, so the round decodes exactly as the first did. Counters (`frames`,
    /// `diagnostics`) go on.
    public mutating func restart(
        reason: CancelReason, time: Timestamp?, tracker: inout StrokeTracker, into out: inout EventBuffer<StrokeEvent>
    ) {
        cancelAll(reason: reason, time: time, tracker: &tracker, into: &out)
        // The same description was decoded when the device was added: it cannot fail now.
        var fresh = try! MultitouchDecoder(description: description)
        fresh.diagnostics = decoder.diagnostics
        decoder = fresh
    }

    /// Cancels the device's strokes in progress with `reason` at `time` (the last time seen when
    /// nil): the device is removed, or the daemon stops.
    public mutating func cancelAll(
        reason: CancelReason, time: Timestamp?, tracker: inout StrokeTracker, into out: inout EventBuffer<StrokeEvent>
    ) {
        startContacts()
        decoder.cancelAll(reason: reason, time: time ?? lastTime, into: &contacts)
        applyContacts(tracker: &tracker, into: &out)
    }

    // The same with the stroke events appended to an array (tests, and callers that keep them),
    // through a buffer of their own.

    @discardableResult
    public mutating func process(_ input: FrameInput, tracker: inout StrokeTracker, into out: inout [StrokeEvent]) -> Bool {
        EventBuffer.appending(to: &out) { process(input, tracker: &tracker, into: &$0) }
    }

    @discardableResult
    public mutating func process(_ input: FrameViewInput, tracker: inout StrokeTracker, into out: inout [StrokeEvent]) -> Bool {
        EventBuffer.appending(to: &out) { process(input, tracker: &tracker, into: &$0) }
    }

    @discardableResult
    public mutating func process(
        _ frame: Frame, origin: FrameOrigin, tracker: inout StrokeTracker, into out: inout [StrokeEvent]
    ) -> Bool {
        EventBuffer.appending(to: &out) { process(frame, origin: origin, tracker: &tracker, into: &$0) }
    }

    public mutating func restart(
        reason: CancelReason, time: Timestamp?, tracker: inout StrokeTracker, into out: inout [StrokeEvent]
    ) {
        EventBuffer.appending(to: &out) { restart(reason: reason, time: time, tracker: &tracker, into: &$0) }
    }

    public mutating func cancelAll(
        reason: CancelReason, time: Timestamp?, tracker: inout StrokeTracker, into out: inout [StrokeEvent]
    ) {
        EventBuffer.appending(to: &out) { cancelAll(reason: reason, time: time, tracker: &tracker, into: &$0) }
    }
}
