import InputCore

/// The state of a pen device's one tool (`TouchProtocol.tool`): which `BTN_TOOL_*` bits are down,
/// `BTN_TOUCH`, and what the last frame published.
struct PenState: Hashable, Sendable {
    /// `BTN_TOOL_*` bits down, one bit per `ToolType.penTool` (bit = code − `BTN_TOOL_PEN`).
    var toolsDown: UInt8 = 0
    /// The tool whose bit was set most recently while others may still be down (an eraser flip
    /// sends `BTN_TOOL_RUBBER 1` and `BTN_TOOL_PEN 0` in either order).
    var lastTool: Int32?
    /// `BTN_TOUCH` as last reported; nil until the device reports it.
    var touch: Bool?
    /// Whether a touch is `BTN_TOUCH` (the device declares it) or, failing that, pressure > 0.
    let touchIsButton: Bool
    let hasPressure: Bool

    /// Published state after the last frame: the tool in proximity (nil: none, or not published
    /// because its position is unknown) and whether its stroke is live.
    var publishedTool: Int32?
    var strokeLive = false
    /// A tool in proximity announced without a position (`ContactFlags.positionPending`), until
    /// it is placed or leaves.
    var pendingTool: Int32?
    /// The sample as of the last frame: what a tool that leaves proximity is published with.
    var previousSample = ContactSample(known: [])

    init(description: DeviceDescription) {
        touchIsButton = description.has(.key, KeyCode.btnTouch)
        hasPressure = description.has(.abs, AbsCode.pressure)
    }

    mutating func setTool(_ tool: Int32, down: Bool) {
        let bit = UInt8(1) << UInt8(PenState.index(tool))
        if down {
            toolsDown |= bit
            lastTool = tool
        } else {
            toolsDown &= ~bit
        }
    }

    /// The tool in proximity: the most recent one set if it is still down, else any that is.
    var toolInProximity: Int32? {
        guard toolsDown != 0 else { return nil }
        if let t = lastTool, toolsDown & (UInt8(1) << UInt8(PenState.index(t))) != 0 { return t }
        let index = toolsDown.trailingZeroBitCount
        return ToolType.penTool(key: KeyCode.btnToolPen + UInt16(index))
    }

    private static func index(_ tool: Int32) -> Int {
        tool == ToolType.pen ? 0 : Int(tool) - Int(KeyCode.btnToolPen)
    }
}

// Pen devices, once per SYN_REPORT. The frame's net state decides (the tool bit and BTN_TOUCH
// may change in either order inside it): a stroke is the tool touching, from BTN_TOUCH 1 (or,
// without BTN_TOUCH, pressure > 0) until BTN_TOUCH 0 or the tool leaving proximity; the tool in
// proximity without touching is hover. A different tool in proximity (the eraser flip) ends the
// old tool's stroke and proximity before the new tool's begin. Nothing is published before the
// position is known.
extension MultitouchDecoder {
    mutating func flushTool(time: Timestamp, into out: inout EventBuffer<ContactEvent>) {
        guard slots[0].touched else { return }
        var sample = slots[0].sample
        let dirty = slots[0].axesDirty
        slots[0].axesDirty = false
        slots[0].touched = false
        touchedSlots.removeAll()

        let inProximity = pen.toolInProximity
        let tool = sample.positionKnown ? inProximity : nil
        let touching: Bool
        if tool == nil {
            touching = false
        } else if pen.touchIsButton {
            touching = pen.touch ?? false
        } else {
            touching = pen.hasPressure && sample.known.contains(.pressure) && sample.pressure > 0
        }
        let old = pen.publishedTool
        let previous = pen.previousSample
        pen.previousSample = sample
        // The frame that lifts the tool publishes its point with `ended`, not again as hover.
        var lifted = false
        if let old {
            // Wacom's driver zeroes the axes in the frame a tool leaves proximity; like libinput
            // (evdev-tablet.c), the leaving tool keeps its last values from the frame before.
            var last = tool == old ? sample : previous
            last.toolType = old
            if pen.strokeLive && (!touching || tool != old) {
                out.appendAssumingUnique(penEvent(.ended, time: time, sample: last))
                pen.strokeLive = false
                lifted = true
            }
            if tool != old { out.appendAssumingUnique(penEvent(.hover(.proximityOut), time: time, sample: last)) }
        }
        guard let tool else {
            pen.publishedTool = nil
            announcePending(inProximity, time: time, into: &out)
            return
        }
        pen.pendingTool = nil
        sample.toolType = tool
        sample.known.insert(.toolType)
        if tool != old { out.appendAssumingUnique(penEvent(.hover(.proximityIn), time: time, sample: sample)) }
        if touching && !pen.strokeLive {
            out.appendAssumingUnique(penEvent(.began, time: time, sample: sample))
            pen.strokeLive = true
        } else if dirty && tool == old && !lifted {
            out.appendAssumingUnique(penEvent(touching ? .moved : .hover(.motion), time: time, sample: sample))
        }
        pen.publishedTool = tool
    }

    /// A tool near whose position is unknown is not published, but touch arbitration must know
    /// it is near: its coming and going, flagged `positionPending`, for the tracker alone.
    private mutating func announcePending(_ tool: Int32?, time: Timestamp, into out: inout EventBuffer<ContactEvent>) {
        var sample = slots[0].sample
        if let tool {
            guard pen.pendingTool == nil else { return }
            pen.pendingTool = tool
            sample.toolType = tool
            out.appendAssumingUnique(ContactEvent(
                kind: .hover(.proximityIn), slot: 0, trackingID: nil, time: time, sample: sample,
                flags: deviceFlags.union(.positionPending)))
        } else if let pending = pen.pendingTool {
            pen.pendingTool = nil
            sample.toolType = pending
            out.appendAssumingUnique(ContactEvent(
                kind: .hover(.proximityOut), slot: 0, trackingID: nil, time: time, sample: sample,
                flags: deviceFlags.union(.positionPending)))
        }
    }

    private func penEvent(_ kind: ContactEvent.Kind, time: Timestamp, sample: ContactSample) -> ContactEvent {
        // A stroke found in a seed frame (the device's state when it was opened) began unseen.
        let flags = kind == .began && origin != .device ? deviceFlags.union(.adopted) : deviceFlags
        return ContactEvent(kind: kind, slot: 0, trackingID: nil, time: time, sample: sample, flags: flags)
    }

    /// Cancels the pen's live stroke and takes it out of proximity.
    /// Whether or not it was published, the tool is unknown afterwards (a tool in proximity whose
    /// position was not known yet included): the device's next tool bit says.
    mutating func cancelTool(reason: CancelReason, time: Timestamp, into out: inout EventBuffer<ContactEvent>) {
        defer { pen = PenState(resetting: pen) }
        guard let old = pen.publishedTool else { return announcePending(nil, time: time, into: &out) }
        var sample = slots[0].sample
        sample.toolType = old
        if pen.strokeLive { out.appendAssumingUnique(penEvent(.cancelled(reason), time: time, sample: sample)) }
        out.appendAssumingUnique(penEvent(.hover(.proximityOut), time: time, sample: sample))
    }
}

extension PenState {
    /// Nothing known of the tool any more (lost events): the device's next tool bit says.
    init(resetting s: PenState) {
        self = s
        toolsDown = 0
        lastTool = nil
        touch = nil
        publishedTool = nil
        strokeLive = false
        pendingTool = nil
    }
}
