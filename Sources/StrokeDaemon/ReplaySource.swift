import Atomics
import Dispatch
import GestureRecognizer
import InputCore
import NIOCore
import StrokeRecording
import StrokeTracker

/// Serves a recording as if its devices were live (`strokes daemon --replay FILE`): frames are
/// fed to the daemon at their recorded pace (scaled by `speed`), on the daemon's event loop,
/// from timers only (no polling). With `loop`, the recording starts again when it ends, its
/// timestamps shifted so that time keeps increasing.
///
/// `@unchecked Sendable`, and why that is safe: every `var` is touched on the daemon's loop only.
/// `start`, `advance` and `stop` trap elsewhere (`preconditionInEventLoop`); the timers run on the
/// loop; the flat-out feeder thread reaches the state only through `loop.submit`; the one flag it
/// reads itself, `stopped`, is atomic. The lets are immutable after `init`.
public final class ReplaySource: @unchecked Sendable {
    struct Step {
        var device: Int
        var input: FrameInput
        /// When it plays, in µs of recorded time after the round's first step (`PlayClock`: an
        /// interval that goes back counts as 0).
        var play: Double = 0
    }

    let daemon: Daemon
    private let steps: [Step]
    private var deviceIDs: [DeviceID] = []
    private let speed: Double
    private var loop: Bool
    private var index = 0
    private var offset: Int64 = 0
    /// The playing time (`Step.play`) of the rounds before this one, half a second between two.
    private var playOffset: Double = 0
    private var startDeadline = NIODeadline.now()
    private var firstTime: Int64 = 0
    /// The latest time in the recording (not always the last step's: times may go backwards).
    private var latestTime: Int64 = 0
    private var scheduled: NIOScheduledCallback?
    /// When the timer was asked to wake the loop (the next step's deadline, or at once for a step
    /// already due): waking much later than that is a stall of the process or the machine.
    private var wakeTarget: NIODeadline?
    public private(set) var rounds = 0
    private let path: String
    private let recording: Recording
    /// Called on the loop when the recording has played through (without `loop`).
    public var onFinished: (() -> Void)?
    /// Each device's gesture thresholds, by its path (`replay:FILE`) and description: the
    /// configuration's `gestures:`; set before `start()`.
    public var gestures: (String, DeviceDescription) -> GestureConfiguration = { _, _ in GestureConfiguration() }
    /// Each device's calibration and touch-jump setting by its name (`replay:PATH`) and description:
    /// the configuration's `calibration:` and `touchJumps:`, as for a live device; set before `start()`.
    public var calibration: (String, DeviceDescription) -> Calibration = { _, _ in .identity }
    public var jumps: (String, DeviceDescription) -> JumpSetting = { _, _ in .deviceDefault }

    /// - Parameters:
    ///   - speed: 1 is real time, 2 twice as fast; 0: as fast as the loop allows; negative:
    ///     manual, frames are fed only by `advance(_:)` (tests, benchmarks).
    public init(daemon: Daemon, recording: Recording, path: String, speed: Double, loop: Bool) {
        self.daemon = daemon
        self.speed = speed
        self.loop = loop
        self.path = path
        self.recording = recording
        // Interleaved by time, as `strokes replay` does. In memory, reading cannot fail: there
        // are no lines left to parse.
        var frames = MergedFrames(RecordingStream(memory: recording, file: path))
        var merged: [Step] = []
        var clock = PlayClock()
        while let (device, input) = try! frames.next() {
            var step = Step(device: device, input: input)
            step.play = clock.play(input.time)
            merged.append(step)
        }
        steps = merged
    }

    /// Adds the recording's devices to the daemon and starts playing. Call on the loop.
    public func start() throws {
        daemon.loop.preconditionInEventLoop()
        for (i, d) in recording.devices.enumerated() {
            let name = recording.devices.count > 1 ? "replay:\(path)#\(i + 1)" : "replay:\(path)"
            deviceIDs.append(
                try daemon.addDevice(
                    path: name, description: d.description, calibration: calibration(name, d.description),
                    jumps: jumps(name, d.description), gestures: gestures(name, d.description)))
            // A hold's timer counts the recording's time, which runs at `speed` (flat out: as is).
            if speed > 0 { daemon.setClockRate(speed, of: deviceIDs[deviceIDs.count - 1]) }
            if let tail = d.truncatedTail {
                // The file's, not the decoder's: not a `stats` diagnostic; said once, here.
                daemon.logger.warning(
                    "recording cut off mid-frame: \(tail.eventCount) events after the last SYN_REPORT (from line \(tail.line)) are not applied",
                    metadata: ["device": "\(deviceIDs[deviceIDs.count - 1])", "recording": "\(path)"])
            }
        }
        guard !steps.isEmpty else { return }
        firstTime = steps[0].input.time.microseconds
        latestTime = steps.reduce(firstTime) { max($0, $1.input.time.microseconds) }
        startDeadline = .now()
        if speed >= 0 { scheduleNext() }
    }

    /// The daemon ids of the recording's devices, in the recording's order.
    public var devices: [DeviceID] { deviceIDs }

    /// Frames (and drop markers) in one round of the recording.
    public var stepCount: Int { steps.count }

    /// Manual mode: feeds the next `count` frames at once (wrapping around with `loop`); returns
    /// how many were fed. Call on the loop.
    @discardableResult
    public func advance(_ count: Int) -> Int {
        daemon.loop.preconditionInEventLoop()
        var n = 0
        while n < count, atNextStep() {
            feedStep()
            n += 1
        }
        return n
    }

    public func stop() {
        daemon.loop.preconditionInEventLoop()
        scheduled?.cancel()
        scheduled = nil
        stopped.store(true, ordering: .relaxed)
    }

    private let stopped = ManagedAtomic(false)
    private var finished = false

    /// Whether there is a step to feed, starting the next round with `loop`. At the end of a
    /// recording without `loop`, it is finished (`onFinished`, once).
    private func atNextStep() -> Bool {
        if index < steps.count { return true }
        guard loop else {
            if !finished {
                finished = true
                rounds += 1
                onFinished?()
            }
            return false
        }
        // The next round starts half a second after the latest time of this one, so that its
        // times go on from there. Found by a black-box test: with the last step's time, a
        // recording whose times go backwards moved the next round into the past, and a loop of
        // rounds all due at once starved the event loop of its I/O; one spanning centuries
        // overflowed the offset.
        let span = latestTime.subtractingReportingOverflow(firstTime)
        let gap = span.partialValue.addingReportingOverflow(500_000)
        let (next, overflow) = offset.addingReportingOverflow(gap.partialValue)
        // Without overflow `next` > 0 (the latest time is at least the first), so the last test
        // cannot overflow itself.
        guard !span.overflow, !gap.overflow, !overflow, latestTime <= Int64.max - next else {
            daemon.logger.warning(
                "looped recording stopped: its times would pass 2^63 µs in the next round", metadata: ["recording": "\(path)"])
            loop = false
            return atNextStep()
        }
        rounds += 1
        // Each round is the recording from its start, as a device just plugged in: fingers it
        // left down are cancelled, not carried into the next round's slots.
        for device in deviceIDs { daemon.restartDevice(device) }
        offset = next
        playOffset += steps[steps.count - 1].play + 500_000
        index = 0
        return true
    }

    private func feedStep() {
        daemon.process(shifted(steps[index].input), device: deviceIDs[steps[index].device])
        index += 1
    }

    /// When step `i` of the current round is due, at `speed`.
    private func deadline(_ i: Int) -> NIODeadline {
        // In `Double` (times and offset may be near 2^63 µs), and at most 10^15 µs (31 years)
        // away: further than that is never, and `TimeAmount` counts nanoseconds in an `Int64`.
        let due = (steps[i].play + playOffset) / speed
        return startDeadline + .microseconds(Int64(min(max(due, 0), 1e15)))
    }

    /// As fast as possible. A task that reschedules itself at once would starve the loop's I/O
    /// (NIO runs ready tasks until there are none before it polls), so a feeder thread hands the
    /// loop one batch at a time and waits for it.
    private func runFlatOut() {
        let loop = daemon.loop
        DispatchQueue(label: "strokes.replay").async { [self] in
            while !stopped.load(ordering: .relaxed) {
                let more = try? loop.submit { self.fastBatch(256) }.wait()
                if more != true { break }
            }
        }
    }

    /// Feeds up to `limit` frames; false when the recording is done (without `loop`).
    private func fastBatch(_ limit: Int) -> Bool {
        guard !daemon.stopping, !stopped.load(ordering: .relaxed) else { return false }
        for _ in 0..<limit {
            guard atNextStep() else { return false }
            feedStep()
        }
        return true
    }

    /// Paced (or, at speed 0, flat out): the timer for the next due step. `now`, where the caller
    /// has just read the clock.
    private func scheduleNext(now: NIODeadline? = nil) {
        guard !daemon.stopping, atNextStep() else { return }
        if speed == 0 {
            runFlatOut()
        } else {
            // A callback, not a task: `scheduleTask` made a promise and its future per frame
            // (an allocation and generic-metadata lookups on the loop, at every frame's wake-up).
            let due = deadline(index)
            wakeTarget = max(due, now ?? .now())
            scheduled = try? daemon.loop.scheduleCallback(at: due, handler: Due(source: self))
        }
    }

    /// What the loop calls back when the next step is due.
    private struct Due: NIOScheduledCallbackHandler, Sendable {
        let source: ReplaySource
        func handleScheduledCallback(eventLoop: some EventLoop) { source.runDue() }
    }

    /// Feeds every step that is due by now, then waits for the next. After a stall (the process
    /// stopped, the machine suspended: the timer fired more than `stallThreshold` late) the
    /// schedule moves by the stall, so playing resumes at the recorded pace where it stopped
    /// instead of every overdue frame at once (a burst that slow clients saw merged).
    private func runDue() {
        let now = NIODeadline.now()
        if let target = wakeTarget, now - target > Self.stallThreshold { startDeadline = startDeadline + (now - target) }
        wakeTarget = nil
        while index < steps.count, deadline(index) <= now { feedStep() }
        scheduleNext(now: now)
    }

    /// Later than a loaded machine's timer jitter, shorter than any pause a person would notice.
    static let stallThreshold = TimeAmount.milliseconds(250)

    private func shifted(_ input: FrameInput) -> FrameInput {
        guard offset != 0 else { return input }
        switch input {
        case .frame(let f): return .frame(Frame(events: f.events, time: Timestamp(microseconds: f.time.microseconds + offset)))
        case .dropped(let t): return .dropped(Timestamp(microseconds: t.microseconds + offset))
        }
    }
}
