import Evdev
import Foundation
import InputCore
import StrokeProtocol
import StrokeRecording

#if canImport(Glibc)
import Glibc
#endif

/// The checks of one boot, against one `strokes daemon` reading the guest kernel's evdev devices.
final class Scenarios {
    enum Player { case strokes, evemu }

    let strokes: String
    let fixtures: String
    let daemon: DaemonProcess
    let client: Subscriber
    /// Microseconds from the kernel stamping an event (at the uinput write) to the client reading it.
    private(set) var latencies: [Int64] = []

    init(strokes: String, fixtures: String, daemon: DaemonProcess, client: Subscriber) {
        self.strokes = strokes
        self.fixtures = fixtures
        self.daemon = daemon
        self.client = client
    }

    func recording(_ file: String) throws -> Recording { try RecordingReader.read(path: fixtures + "/" + file) }

    // MARK: Recordings through the kernel

    /// Plays `file` into a new uinput device (with `strokes replay --uinput` or evemu's tools) at its
    /// recorded pace; the daemon must publish exactly what `strokes replay` prints for it, then
    /// cancel the strokes still down when the device goes.
    func lifecycle(_ file: String, player: Player, path explicit: String? = nil) throws -> String {
        let path = explicit ?? fixtures + "/" + file
        let recording = try RecordingReader.read(path: path)
        let events = recording.devices[0].events
        let t0 = now()
        let expected = try Expectation(description: recording.devices[0].description, events: events)
        let t1 = now()
        let duration = Double((events.last?.time.microseconds ?? 0) - (events.first?.time.microseconds ?? 0)) / 1e6
        let name = recording.devices[0].description.name
        let mark = client.count

        let creator: Spawned
        switch player {
        case .strokes: creator = try Spawned(strokes, ["replay", "--uinput", "--wait", path])
        case .evemu: creator = try Spawned("/usr/bin/evemu-device", [path])
        }
        defer { creator.wait(timeout: 0) }
        let (device, node) = try client.deviceAdded(name: name, after: mark)
        switch player {
        case .strokes:
            creator.sendLine()
            log("  [\(file): expectation \((t1 - t0) / 1000) ms, device ready after \((now() - t1) / 1000) ms]")
        case .evemu:
            let play = try Spawned("/usr/bin/evemu-play", [node], stdinFile: path)
            let status = play.wait(timeout: duration * 5 + 60)
            try check(status == 0, "evemu-play \(node) exited with \(status)")
        }
        // On a timeout, go on: the comparison below says what is missing.
        _ = try? client.waitUntil("\(expected.lines.count) stroke events from \(file)", timeout: duration * 5 + 60) {
            client.strokeCount(device: device) >= expected.lines.count
        }
        switch player {
        case .strokes:
            creator.sendLine()
            let status = creator.wait(timeout: 30)
            try check(status == 0, "strokes replay --uinput exited with \(status)")
        case .evemu:
            creator.signal(SIGTERM)
            creator.wait(timeout: 30)
        }
        try client.deviceRemoved(device)

        let (got, tail) = try checkRemoved(device, expected, what: file)
        let mine = got.compactMap { e in e.time.map { e.at - $0 } }.sorted()
        log("  [\(file): latency p50 \(percentile(mine, 0.5)) µs p99 \(percentile(mine, 0.99)) µs]")
        latencies += mine
        return "\(got.count) stroke events identical to strokes replay (\(expected.began) began, \(expected.ended) ended, "
            + "\(tail.count) cancelled at removal; \(expected.framesDropped) frames the kernel drops as repeats) via \(node)"
    }

    /// After `device` went away: its stroke events are `expected` followed by one
    /// `cancelled(deviceRemoved)` per stroke still down, and every stroke ended exactly once.
    private func checkRemoved(_ device: Int64, _ expected: Expectation, what: String) throws -> ([Received], ArraySlice<Received>) {
        let got = client.strokeEvents(device: device)
        try compare(expected: expected.lines, actual: got.prefix(expected.lines.count).map(\.line), what: what)
        let tail = got.dropFirst(expected.lines.count)
        try check(
            tail.count == expected.stillActive.count
                && tail.allSatisfy { $0.type == "cancelled" && $0.event?.reason == .deviceRemoved },
            "\(what): after the frames played, expected \(expected.stillActive.count) cancelled(deviceRemoved), received \(tail.map(\.line))")
        try checkLifecycles(got, what: what)
        return (got, tail)
    }

    /// Records a device with `strokes record` (evemu and YAML at once) while a recording plays
    /// into it, then checks the captures: `strokes replay` of each gives the original's strokes,
    /// and evemu's own tools replay the evemu capture into the kernel, where the daemon sees
    /// those strokes again.
    func recordRoundTrip(_ file: String) throws -> String {
        let recording = try recording(file)
        let description = recording.devices[0].description
        let expected = try Expectation(description: description, events: recording.devices[0].events)
        let captures = ["/tmp/capture.evemu", "/tmp/capture.yml"]
        for c in captures { unlink(c) }
        let mark = client.count
        let player = try Spawned(strokes, ["replay", "--uinput", "--wait", fixtures + "/" + file])
        defer { player.wait(timeout: 0) }
        let (device, node) = try client.deviceAdded(name: description.name, after: mark)
        let recorders = try captures.map { try Spawned(strokes, ["record", node, "-o", $0], stdinFile: "/dev/null") }
        defer { for r in recorders { r.wait(timeout: 0) } }
        try client.waitUntil("strokes record to write its headers", timeout: 30) {
            captures.allSatisfy { (try? String(contentsOfFile: $0, encoding: .utf8))?.contains("events:") == true
                || (try? String(contentsOfFile: $0, encoding: .utf8))?.contains("Waiting for events") == true }
        }
        player.sendLine()
        try client.waitUntil("the recording's strokes", timeout: 60) { client.strokeCount(device: device) >= expected.lines.count }
        // Let the recorders take the last frame too: the daemon has it, so the kernel handed it out.
        usleep(300_000)
        for r in recorders {
            r.signal(SIGINT)
            try check(r.wait(timeout: 30) == 0, "strokes record did not exit 0 on SIGINT")
        }
        player.sendLine()
        try check(player.wait(timeout: 30) == 0, "strokes replay --uinput failed")
        try client.deviceRemoved(device)

        var sizes: [String] = []
        for capture in captures {
            let captured = try RecordingReader.read(path: capture)
            let replayed = try Expectation(description: captured.devices[0].description, events: captured.devices[0].events)
            try check(replayed.framesDropped == 0, "\(capture) holds \(replayed.framesDropped) frames the kernel would not pass")
            try compare(expected: expected.lines, actual: replayed.lines, what: "strokes replay \(capture)")
            sizes.append("\(capture) (\(captured.format), \(captured.devices[0].events.count) events)")
        }
        let again = try lifecycle(file + " (captured)", player: .evemu, path: captures[0])
        return "captured \(node) as \(sizes.joined(separator: " and ")); strokes replay of each matches; "
            + "evemu-device + evemu-play of the evemu capture: \(again)"
    }

    /// With a live device open, a client subscribed and nothing touching, no thread of the daemon
    /// wakes up (issue 14: 0 wake-ups idle): the device is read on the loop, which sleeps in
    /// `epoll_wait` with no timer armed.
    func idleWithADevice(_ file: String) throws -> String {
        let screen = try recording(file).devices[0].description
        let mark = client.count
        let uinput = try UinputDevice(description: screen)
        let (id, _) = try client.deviceAdded(name: screen.name, after: mark)
        try uinput.writeFrame(down(0, 700, 1000, 1000) + touch(true))
        try uinput.writeFrame(move(0, 1100))
        try uinput.writeFrame(up(0) + touch(false))
        try client.waitFor("the stroke's end", timeout: 30) { $0.contains { $0.type == "ended" && $0.device == id } }
        usleep(500_000)  // a gesture's settle time, any write still in flight
        let before = daemon.contextSwitches()
        sleep(3)
        let after = daemon.contextSwitches()
        uinput.destroy()
        try client.deviceRemoved(id)
        let woke = after.filter { before[$0.key] != $0.value }
        try check(!before.isEmpty, "no thread of the daemon found in /proc")
        try check(woke.isEmpty, "threads that woke while idle: \(woke.map { "\($0.key): \(before[$0.key] ?? 0) → \($0.value)" })")
        return "\(before.count) threads, a device open and a client subscribed: no context switch in 3 s"
    }

    /// A node's creation and its change of permissions (udev's `chmod`, here our own) reach the
    /// daemon in one inotify read, because it is stopped meanwhile: the node is opened once, and a
    /// touch on it is one stroke.
    func hotplugWhileStopped(_ file: String) throws -> String {
        let screen = try recording(file).devices[0].description
        let mark = client.count
        let uinput = try deviceMadeWhileStopped(screen)
        let (id, node) = try client.deviceAdded(name: screen.name, after: mark)
        try uinput.writeFrame(down(0, 800, 1000, 1000) + touch(true))
        try uinput.writeFrame(move(0, 1100))
        try uinput.writeFrame(up(0) + touch(false))
        try client.waitFor("the stroke's end", timeout: 30) { $0.contains { $0.type == "ended" && $0.device == id } }
        uinput.destroy()
        try client.deviceRemoved(id)
        let got = client.all.dropFirst(mark)
        let added = got.filter { if case .deviceAdded(let a) = $0.message { return a.device.path == node }; return false }
        try check(added.count == 1, "\(node) was added \(added.count) times: \(added.map(\.line))")
        let began = got.filter { $0.type == "began" }
        try check(began.count == 1, "one touch gave \(began.count) strokes: \(began.map(\.line))")
        return "\(node) made and chmod-ed while the daemon was stopped: added once, one touch one stroke"
    }

    /// Makes a device while the daemon is stopped (`SIGSTOP`), gives its node udev's permissions,
    /// writes `frames` to it, and lets the daemon go on: the daemon sees all of it in one go.
    func deviceMadeWhileStopped(_ description: DeviceDescription, frames: [[InputEvent]] = []) throws -> UinputDevice {
        daemon.signal(SIGSTOP)
        defer { daemon.signal(SIGCONT) }
        let uinput = try UinputDevice(description: description)
        guard let node = uinput.waitForDevnode() else { throw Failure("no device node") }
        try check(chmod(node, 0o660) == 0, "chmod \(node): \(String(cString: strerror(errno)))")
        for frame in frames { try uinput.writeFrame(frame) }
        return uinput
    }

    /// Over everything the boot's client received: no node was served as two devices at once (a
    /// node's creation and its permissions arrive as two inotify records, often in one read, and
    /// the directory scan at start can see a node the watch reports too).
    func onePerNode() throws -> String {
        var open: [String: Int64] = [:]
        var added = 0
        for r in client.all {
            if case .deviceAdded(let a) = r.message {
                if let other = open[a.device.path] { throw Failure("\(a.device.path) served twice: devices \(other) and \(a.device.device)") }
                open[a.device.path] = Int64(a.device.device)
                added += 1
            } else if r.type == "deviceRemoved", let device = r.device {
                open = open.filter { $0.value != device }
            }
        }
        try check(added > 0, "no deviceAdded received")
        return "\(added) devices added over the boot, each node served once at a time"
    }

    /// Removes a device while fingers are down: their strokes are cancelled (`deviceRemoved`)
    /// before `deviceRemoved`, and the daemon goes on.
    func removalMidStroke(_ file: String) throws -> String {
        let recording = try recording(file)
        let all = frames(of: recording)
        let description = recording.devices[0].description
        var count = 0
        var expected: Expectation
        repeat {
            count += 1
            expected = try Expectation(description: description, events: all.prefix(count).flatMap { $0 })
        } while expected.stillActive.count < 2 && count < all.count
        try check(expected.stillActive.count >= 2, "\(file) never has two fingers down")
        let mark = client.count
        let uinput = try UinputDevice(description: description)
        let (device, _) = try client.deviceAdded(name: description.name, after: mark)
        for frame in all.prefix(count) { try uinput.writeFrame(frame) }
        _ = try? client.waitUntil("the first \(count) frames", timeout: 30) {
            client.strokeCount(device: device) >= expected.lines.count
        }
        uinput.destroy()
        try client.deviceRemoved(device)
        let (_, tail) = try checkRemoved(device, expected, what: file)
        let removed = client.all.firstIndex { $0.type == "deviceRemoved" && $0.device == device }!
        let lastCancel = client.all.lastIndex { $0.type == "cancelled" && $0.device == device }!
        try check(lastCancel < removed, "a cancel came after deviceRemoved")
        return "removed after frame \(count) of \(file): \(tail.count) strokes cancelled (deviceRemoved), then deviceRemoved"
    }

    // MARK: Synthetic touches on a recorded device's description

    func ev(_ type: EventType, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: 0), type: type, code: code, value: value)
    }

    func down(_ slot: Int32, _ id: Int32, _ x: Int32, _ y: Int32) -> [InputEvent] {
        [ev(.abs, AbsCode.mtSlot, slot), ev(.abs, AbsCode.mtTrackingID, id),
         ev(.abs, AbsCode.mtPositionX, x), ev(.abs, AbsCode.mtPositionY, y)]
    }

    func move(_ slot: Int32, _ x: Int32) -> [InputEvent] {
        [ev(.abs, AbsCode.mtSlot, slot), ev(.abs, AbsCode.mtPositionX, x)]
    }

    func up(_ slot: Int32) -> [InputEvent] {
        [ev(.abs, AbsCode.mtSlot, slot), ev(.abs, AbsCode.mtTrackingID, -1)]
    }

    func touch(_ on: Bool) -> [InputEvent] { [ev(.key, KeyCode.btnTouch, on ? 1 : 0)] }

    func stroke(_ events: [Received], trackingID: Int64) -> [Received] {
        let ids = Set(events.filter { $0.type == "began" && $0.trackingId == trackingID }.compactMap { $0.stroke })
        return events.filter { ids.contains($0.stroke ?? -1) }
    }

    /// Floods a device while the daemon is stopped (SIGSTOP) so that the kernel's buffer
    /// overflows (a real `SYN_DROPPED`), then checks libevdev's resync as the daemon applies it.
    func flood(_ file: String) throws -> String {
        let description = try recording(file).devices[0].description
        let mark = client.count
        let uinput = try UinputDevice(description: description)
        let (device, _) = try client.deviceAdded(name: description.name, after: mark)
        // A (100) stays down throughout; B (101) lifts during the drop; D (103) comes and goes
        // during it; C (102) lifts and E (104) lands in its slot during it.
        try uinput.writeFrame(down(0, 100, 1000, 100) + down(1, 101, 200, 200) + down(2, 102, 300, 300) + touch(true))
        try client.waitFor("three began", timeout: 30) {
            $0.filter { $0.type == "began" && $0.device == device }.count == 3
        }
        daemon.signal(SIGSTOP)
        var continued = false
        defer { if !continued { daemon.signal(SIGCONT) } }
        usleep(200_000)
        let floodFrames = 3000
        for i in 0..<floodFrames {
            var frame = move(0, 1000 + Int32(i))
            switch i {
            case 50: frame += up(1)
            case 100: frame += down(1, 103, 250, 250)
            case 150: frame += up(1)
            case 200: frame += up(2)
            case 201: frame += down(2, 104, 500, 500)
            default: break
            }
            try uinput.writeFrame(frame)
        }
        let lastX = Int64(1000 + floodFrames - 1)
        daemon.signal(SIGCONT)
        continued = true
        try client.waitFor("A at its last flooded position", timeout: 60) {
            $0.contains { $0.device == device && $0.type == "moved" && $0.trackingId == 100 && $0.x == lastX }
        }
        try uinput.writeFrame(move(0, Int32(lastX + 1)))
        try uinput.writeFrame(up(0) + up(2) + touch(false))
        try client.waitFor("A and E ended", timeout: 30) { got in
            [100, 104].allSatisfy { id in got.contains { $0.device == device && $0.type == "ended" && $0.trackingId == id } }
        }
        uinput.destroy()
        try client.deviceRemoved(device)

        let got = client.strokeEvents(device: device)
        try checkLifecycles(got, what: "flood")
        let a = stroke(got, trackingID: 100)
        try check(a.filter { $0.type == "began" }.count == 1, "A began more than once: \(a.map(\.line))")
        try check(a.last?.type == "ended", "A did not survive the resync: \(a.last?.line ?? "nothing")")
        try check(a.contains { $0.x == lastX } && a.contains { $0.x == lastX + 1 }, "A's resync position and later move missing")
        for (id, label) in [(Int64(101), "B"), (102, "C")] {
            let s = stroke(got, trackingID: id)
            try check(
                s.last?.type == "cancelled" && s.last?.event?.reason == .resync,
                "\(label) (lifted during the drop) should be cancelled(resync): \(s.map(\.line))")
        }
        let e = stroke(got, trackingID: 104)
        try check(
            e.first?.event?.flags?.contains(.adopted) == true && e.last?.type == "ended",
            "E (landed during the drop) should begin adopted and end: \(e.map(\.line))")
        let d = stroke(got, trackingID: 103)
        return "\(floodFrames) frames written while the daemon was stopped; A kept stroke \(a[0].stroke!) and ended, "
            + "B and C cancelled(resync), E adopted and ended, D \(d.isEmpty ? "lost with the dropped events" : "seen")"
    }

    /// A second device appears while the first has a finger down: both are served, with their
    /// own device ids and strokes.
    func hotplug(pad padFile: String, screen screenFile: String) throws -> String {
        let pad = try recording(padFile).devices[0].description
        let screen = try recording(screenFile).devices[0].description
        var mark = client.count
        let p = try UinputDevice(description: pad)
        let (padID, _) = try client.deviceAdded(name: pad.name, after: mark)
        try p.writeFrame(down(0, 300, 2000, 2000) + touch(true))
        try client.waitFor("the pad's began", timeout: 30) { $0.contains { $0.type == "began" && $0.device == padID } }
        mark = client.count
        let s = try UinputDevice(description: screen)
        let (screenID, _) = try client.deviceAdded(name: screen.name, after: mark)
        try check(screenID != padID, "the second device got the first one's id")
        try s.writeFrame(down(0, 400, 1000, 1000) + touch(true))
        try p.writeFrame(move(0, 2100))
        try s.writeFrame(move(0, 1100))
        try p.writeFrame(up(0) + touch(false))
        try s.writeFrame(up(0) + touch(false))
        try client.waitFor("both ended", timeout: 30) { got in
            [padID, screenID].allSatisfy { id in got.contains { $0.type == "ended" && $0.device == id } }
        }
        p.destroy()
        s.destroy()
        try client.deviceRemoved(padID)
        try client.deviceRemoved(screenID)
        for (id, tracking) in [(padID, Int64(300)), (screenID, 400)] {
            let got = client.strokeEvents(device: id)
            try checkLifecycles(got, what: "hotplug device \(id)")
            try check(got.map(\.type) == ["began", "moved", "ended"] && got.allSatisfy { $0.trackingId == tracking },
                      "device \(id): expected began, moved, ended of tracking ID \(tracking), received \(got.map(\.line))")
        }
        return "device \(screenID) hotplugged while device \(padID) had a finger down; each got its own began, moved, ended"
    }

    /// Starts a second daemon while two fingers are down: it adopts them (with their tracking IDs
    /// and positions, from `EVIOCGMTSLOTS`) and follows them to their lift.
    func adoption(_ file: String) throws -> String {
        let screen = try recording(file).devices[0].description
        let uinput = try UinputDevice(description: screen)
        guard uinput.waitForDevnode() != nil else { throw Failure("no device node") }
        try uinput.writeFrame(down(0, 500, 1000, 900) + down(1, 501, 2000, 1500) + touch(true))
        let second = try DaemonProcess(strokes: strokes, socket: "/run/strokes-adopt.sock")
        var stopped = false
        defer { if !stopped { second.stop() } }
        let c = try Subscriber(path: second.socket)
        let snapshotLine = c.all.first { $0.type == "snapshot" }!
        guard case .snapshot(let snapshot) = snapshotLine.message else { throw Failure("not a snapshot: \(snapshotLine.line)") }
        let live = snapshot.strokes.filter { [500, 501].contains($0.trackingId ?? -1) }
        try check(live.count == 2, "expected the two fingers in the snapshot, got \(snapshotLine.line)")
        var ids: [Int64: Int64] = [:]
        for (tracking, x, y) in [(Int32(500), Int32(1000), Int32(900)), (501, 2000, 1500)] {
            guard let s = live.first(where: { $0.trackingId == tracking }), let point = s.points.first else {
                throw Failure("no stroke for tracking ID \(tracking) in \(snapshotLine.line)")
            }
            try check(s.flags?.contains(.adopted) == true, "stroke of \(tracking) not flagged adopted")
            try check(point.x == x && point.y == y, "stroke of \(tracking) adopted at the wrong place: \(point)")
            ids[Int64(tracking)] = Int64(s.stroke)
        }
        try uinput.writeFrame(move(0, 1010))
        try uinput.writeFrame(up(0) + up(1) + touch(false))
        try c.waitFor("the adopted strokes' moves and ends", timeout: 30) { got in
            got.contains { $0.type == "moved" && $0.stroke == ids[500] && $0.x == 1010 }
                && ids.values.allSatisfy { id in got.contains { $0.type == "ended" && $0.stroke == id } }
        }
        uinput.destroy()
        c.close()
        let status = second.stop()
        stopped = true
        try check(status == 0, "the second daemon exited with \(status) on SIGTERM")
        try check(access(second.socket, F_OK) != 0, "the second daemon left its socket behind")
        return "a daemon started with two fingers down adopted strokes \(ids[500]!) and \(ids[501]!) at their positions and followed them to the lift"
    }
}
