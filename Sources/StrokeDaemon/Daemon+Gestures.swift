import InputCore
import NIOCore
import StrokeTracker

/// A device's one-shot timer for its gesture recogniser's deadline.
struct GestureTimer {
    var deadline: Timestamp
    var task: Scheduled<Void>
}

extension Daemon {
    /// How fast `device`'s clock runs against real time: a recording replayed at speed 4 reaches
    /// a hold's deadline, 400 ms ahead on its clock, 100 ms from now. 1 unless set (live devices).
    public func setClockRate(_ rate: Double, of device: DeviceID) {
        precondition(rate > 0 && rate.isFinite, "a clock rate is positive and finite")
        clockRates[device] = rate == 1 ? nil : rate
    }

    /// Arms, moves or disarms `device`'s gesture timer to match its recogniser's deadline (a
    /// hold's timeout: it must fire with no frame coming). The deadline is in the device's clock,
    /// so the delay is counted from the device's last frame, at the device's clock rate. Nothing
    /// is armed while no finger is down, so an idle daemon still never wakes up. Per frame this is
    /// two dictionary reads.
    func armGestureTimer(_ device: DeviceID) {
        // In place: read through `hub`, the hub was copied out of its box for the call, every
        // reference in it retained and released, once a frame.
        let (deadline, lastTime) = withHub { ($0.gestureDeadline(of: device), $0.lastTime(of: device)) }
        let armed = gestureTimers[device]
        if armed?.deadline == deadline { return }
        armed?.task.cancel()
        guard let deadline, let last = lastTime else {
            gestureTimers[device] = nil
            return
        }
        // Saturated: a deadline more than 2^63 µs ahead is far ahead, not (wrapped) already past.
        let ahead = max(deadline.microseconds(since: last), 0)
        let rate = clockRates[device] ?? 1
        // In `Double`, and at most 10^15 µs (31 years) away, as the replay's own deadlines: at a
        // tiny replay speed (1e-15) the delay is past what `TimeAmount`'s nanoseconds can count.
        let delay = TimeAmount.microseconds(Int64(min((Double(ahead) / rate).rounded(.up), 1e15)))
        let task = loop.scheduleTask(in: delay) { [self] in gestureTimerFired(device, deadline: deadline) }
        gestureTimers[device] = GestureTimer(deadline: deadline, task: task)
    }

    /// Tells the hub whether any client takes gestures: while none does, the recognisers still
    /// run (a client may subscribe mid-gesture and gets its next step) but nothing is encoded.
    func updateGestureSubscribers() {
        hub.encodesGestures = clients.values.contains { $0.wantsGestures }
    }

    private func gestureTimerFired(_ device: DeviceID, deadline: Timestamp) {
        guard gestureTimers[device]?.deadline == deadline else { return }
        gestureTimers[device] = nil
        var steps: [Broadcast] = []
        hub.advanceGestures(device: device, to: deadline, into: &steps)
        publish(steps)
        armGestureTimer(device)
    }
}
