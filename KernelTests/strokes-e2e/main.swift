// strokes-e2e: the guest side of Scripts/kernel-test.sh. Runs inside a QEMU guest booted with a
// real Debian kernel (evdev + uinput): starts `strokes daemon` on the guest's /dev/input, makes
// uinput touch devices from recordings, and checks what a client receives. Prints one
// "E2E PASS|FAIL name: …" line per scenario and "E2E RESULT …" at the end; exits 0 when all pass.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

var strokes = "/usr/local/bin/strokes"
var fixtures = "/fixtures"
var evemu = true
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let a = arguments.next() {
    switch a {
    case "--strokes": strokes = arguments.next() ?? strokes
    case "--fixtures": fixtures = arguments.next() ?? fixtures
    case "--no-evemu": evemu = false
    default:
        log("usage: strokes-e2e [--strokes PATH] [--fixtures DIR] [--no-evemu]")
        exit(64)
    }
}
signal(SIGPIPE, SIG_IGN)

let tenFinger = "01-wacom-dth2242-touchscreen-10finger.evemu"
let touchpad = "11-synaptics-ps2-clickpad-2finger-vert-scroll.evemu"
let semiMT = "09-cypress-ps2-semi-mt-touchpad-3finger-press.evemu"
let mtOnly = "05-nexus4-touch_dev-mt-only-4finger.evemu"
let fourFinger = "03-atmel-maxtouch-touchscreen-4finger-drag.evemu"
let pen = "18-wacom-dth2242-pen-buttons.evemu"

var passed = 0
var failed: [String] = []
@MainActor func run(_ name: String, _ body: () throws -> String) {
    let start = now()
    do {
        let detail = try body()
        passed += 1
        log("E2E PASS \(name) (\(String(format: "%.1f", Double(now() - start) / 1e6)) s): \(detail)")
    } catch {
        failed.append(name)
        log("E2E FAIL \(name): \(error)")
    }
}

let daemon: DaemonProcess
let client: Subscriber
do {
    daemon = try DaemonProcess(strokes: strokes, socket: "/run/strokes.sock")
    client = try Subscriber(path: daemon.socket)
} catch {
    log("E2E FAIL start: \(error)")
    log("E2E RESULT FAIL (the daemon did not start)")
    exit(1)
}
let scenarios = Scenarios(strokes: strokes, fixtures: fixtures, daemon: daemon, client: client)

for file in [tenFinger, touchpad, semiMT, mtOnly, pen] {
    run("replay-uinput \(file)") { try scenarios.lifecycle(file, player: .strokes) }
}
if evemu {
    run("evemu-cross-check \(fourFinger)") {
        // The same recording through both players must give the same strokes: each run is
        // compared with `strokes replay`, so they agree with each other.
        let ours = try scenarios.lifecycle(fourFinger, player: .strokes)
        let theirs = try scenarios.lifecycle(fourFinger, player: .evemu)
        return "strokes replay --uinput: \(ours); evemu-device + evemu-play: \(theirs)"
    }
    run("record-round-trip \(fourFinger)") { try scenarios.recordRoundTrip(fourFinger) }
}
run("idle-with-a-device") { try scenarios.idleWithADevice(fourFinger) }
run("device-removed-mid-stroke") { try scenarios.removalMidStroke(fourFinger) }
run("syn-dropped-flood") { try scenarios.flood(tenFinger) }
run("hotplug-second-device") { try scenarios.hotplug(pad: touchpad, screen: tenFinger) }
run("hotplug-while-stopped") { try scenarios.hotplugWhileStopped(fourFinger) }
run("adopt-at-start") { try scenarios.adoption(tenFinger) }
run("touch-arbitration pen+touch") { try scenarios.touchArbitration(touch: tenFinger, pen: pen) }
run("hovering-mt-contact") { try scenarios.hoveringContact(fourFinger) }
run("one-device-per-node") { try scenarios.onePerNode() }
run("single-touch-key-state") { try scenarios.singleTouchKeyState() }

let sorted = scenarios.latencies.sorted()
if !sorted.isEmpty {
    log(
        "E2E LATENCY uinput write to client, \(sorted.count) events at the recorded pace: p50 \(percentile(sorted, 0.5)) µs, "
            + "p99 \(percentile(sorted, 0.99)) µs, max \(sorted.last!) µs")
}
run("shutdown") {
    client.close()
    let status = daemon.stop()
    try check(status == 0, "the daemon exited with \(status) on SIGTERM")
    try check(access(daemon.socket, F_OK) != 0, "the daemon left its socket behind")
    return "SIGTERM: exit 0, socket removed"
}

if failed.isEmpty {
    log("E2E RESULT PASS \(passed) scenarios")
    exit(0)
}
log("E2E RESULT FAIL \(failed.count) of \(passed + failed.count) scenarios: \(failed.joined(separator: ", "))")
exit(1)
