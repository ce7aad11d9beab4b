// Measures the core pipeline on real recordings. Run in release:
//
//     swift run -c release strokes-bench [RECORDING ...]
//
// Defaults to the longest bundled recordings plus ../shared/recordings/04 when present. Reports,
// per recording: evemu parsing (events/s), decode + track (events/s, frames/s, allocations per
// frame) and JSON encoding of the stroke events as the daemon encodes them (events/s, bytes,
// allocations per event). Each figure is the median of the runs. Decode + track runs
// interleaved with the C peer (`Peer.swift`), whose figure and the ratio are printed beside strokes',
// and with the decoder alone (no tracker), to show how the time divides between the two.

import CMallocCounter
import GestureRecognizer
import InputCore
import MultitouchDecoder
import StrokePipeline
import StrokeProtocol
import StrokeRecording
import StrokeTracker

#if canImport(Glibc)
import Glibc
#endif

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s[s.count / 2]
}

func measure(runs: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        body()
        let d = start.duration(to: .now)
        times.append(Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }
    return median(times)
}

func format(_ v: Double) -> String {
    if v >= 1e6 { return JSONWriter.fixed(v / 1e6, decimals: 2) + " M" }
    if v >= 1e3 { return JSONWriter.fixed(v / 1e3, decimals: 1) + " k" }
    return JSONWriter.fixed(v, decimals: 2) + " "
}

/// Events per read: what `EvdevSource` reads at once (a 4 KiB buffer of 24-byte `input_event`s).
let readSize = 170

/// `device`'s events as reads hand them (`readSize` at a time) to `assembler`, and each frame input
/// to `body`: frames decoded in place from the buffer (`FrameAssembler.feed(_:_:)`), a frame split
/// between two reads assembled.
@inline(__always)
func feedInReads(_ device: RecordedDevice, _ assembler: inout FrameAssembler, _ body: (FrameViewInput) -> Void) {
    device.events.withUnsafeBufferPointer { all in
        var offset = 0
        while offset < all.count {
            let read = UnsafeBufferPointer(rebasing: all[offset..<min(offset + readSize, all.count)])
            offset += read.count
            assembler.feed(read, body)
        }
    }
}

/// Decode + track over every frame of `device`, `repeat` times through the recording, through
/// `DevicePipeline` as the daemon and `strokes replay` run it; with `gestures`, each frame's
/// stroke events also go through the device's gesture recogniser, as the daemon's `Hub` does.
func pipeline(_ device: RecordedDevice, repeat count: Int, gestures: Bool = false) -> (frames: Int, strokeEvents: Int) {
    var frames = 0
    var strokeEvents = 0
    var out = EventBuffer<StrokeEvent>()
    var steps: [Gesture] = []
    steps.reserveCapacity(16)
    let geometry = DeviceGeometry(description: device.description)
    for _ in 0..<count {
        var assembler = FrameAssembler()
        var tracker = StrokeTracker(historyLimit: 256)
        var pipeline = try! DevicePipeline(id: DeviceID(1), description: device.description, geometry: geometry, tracker: &tracker)
        var recognizers = GestureRecognizers()
        if gestures { recognizers.add(DeviceID(1), geometry: geometry, kind: device.description.kind) }
        feedInReads(device, &assembler) { input in
            pipeline.process(input, tracker: &tracker, into: &out)
            if gestures {
                out.withUnsafeBufferPointer { recognizers.process($0, device: DeviceID(1), time: pipeline.lastTime, into: &steps) }
                if !steps.isEmpty { steps.removeAll(keepingCapacity: true) }
            }
            strokeEvents += out.count
            out.removeAll()
        }
        frames += Int(pipeline.frames)
    }
    return (frames, strokeEvents)
}

/// The stroke events of one pass through the recording, and the tracker after it.
func trackedPass(_ device: RecordedDevice) -> ([StrokeEvent], StrokeTracker) {
    var sample: [StrokeEvent] = []
    var d = try! MultitouchDecoder(description: device.description)
    var t = StrokeTracker()
    t.addDevice(DeviceID(1), geometry: DeviceGeometry(description: device.description))
    var a = FrameAssembler()
    var c: [ContactEvent] = []
    for e in device.events {
        guard let i = a.feed(e) else { continue }
        d.process(i, into: &c)
        t.apply(c, device: DeviceID(1), frame: 1, into: &sample)
        c.removeAll()
    }
    return (sample, t)
}

/// The daemon's encode call (`Hub`) over `events`, `passes` times, into `writer`, reused as the
/// daemon reuses its own, with each event's `seq`: the bytes written.
func encode(_ events: [StrokeEvent], geometry: DeviceGeometry, passes: Int = 1, into writer: inout JSONWriter) -> Int {
    var bytes = 0
    for _ in 0..<passes {
        for (i, e) in events.enumerated() {
            _ = e.encode(geometry: geometry, seq: UInt64(i + 1), into: &writer)
            bytes += writer.byteCount
        }
    }
    return bytes
}

let usage = """
    usage: strokes-bench [RECORDING ...]        parse, decode + track (beside c_slot_loop.c), JSON
           strokes-bench --profile RECORDING [PASSES]   decode + track only, for perf record
           strokes-bench --profile-json RECORDING [PASSES]   JSON encoding only, for perf record
    """

/// `text` on standard error.
func warn(_ text: String) {
    let bytes = Array(text.utf8)
    _ = write(2, bytes, bytes.count)
}

/// The recording at `path`, or a message naming it and an exit, not a trap.
func load(_ path: String) -> (bytes: [UInt8], recording: Recording) {
    do {
        let bytes = try RecordingReader.readFile(path)
        let recording = try RecordingReader.read(bytes, file: path)
        guard !recording.devices.isEmpty else { throw RecordingError(file: path, line: nil, message: "no device") }
        return (bytes, recording)
    } catch {
        warn("strokes-bench: \(error)\n")
        exit(2)
    }
}

/// Decoding alone, `repeat` times through the recording, fed as `pipeline` feeds it: the
/// decoder's share of decode + track (what is left of the C loop's time for the tracker).
func decodeOnly(_ device: RecordedDevice, repeat count: Int) -> Int {
    var contacts = EventBuffer<ContactEvent>()
    var total = 0
    for _ in 0..<count {
        var assembler = FrameAssembler()
        var decoder = try! MultitouchDecoder(description: device.description)
        feedInReads(device, &assembler) { input in
            decoder.process(input, into: &contacts)
            total += contacts.count
            contacts.removeAll()
        }
    }
    return total
}

var paths = Array(CommandLine.arguments.dropFirst())
if let option = paths.first(where: { $0.hasPrefix("-") && $0 != "--profile" && $0 != "--profile-json" }) {
    if option == "--help" || option == "-h" {
        print(usage)
        exit(0)
    }
    warn("strokes-bench: unknown option \(option)\n" + usage + "\n")
    exit(2)
}
// `strokes-bench --profile RECORDING [PASSES]`: only decode + track, for `perf record`.
// `strokes-bench --profile-json RECORDING [PASSES]`: only the JSON encoding of its stroke events.
if paths.first == "--profile-json" {
    guard paths.count >= 2 else {
        warn(usage + "\n")
        exit(2)
    }
    let device = load(paths[1]).recording.devices[0]
    let events = trackedPass(device).0
    var writer = JSONWriter(capacity: 1024)
    let geometry = DeviceGeometry(description: device.description)
    let bytes = encode(events, geometry: geometry, passes: paths.count > 2 ? Int(paths[2]) ?? 2000 : 2000, into: &writer)
    print("\(events.count) stroke events, \(bytes) bytes")
    exit(0)
}
if paths.first == "--profile" {
    guard paths.count >= 2 else {
        warn(usage + "\n")
        exit(2)
    }
    let device = load(paths[1]).recording.devices[0]
    let result = pipeline(device, repeat: paths.count > 2 ? Int(paths[2]) ?? 2000 : 2000)
    print("\(result.frames) frames, \(result.strokeEvents) stroke events")
    exit(0)
}
if paths.isEmpty {
    paths = [
        "Tests/ReplayTests/Fixtures/01-wacom-dth2242-touchscreen-10finger.evemu",
        "Tests/ReplayTests/Fixtures/12-synaptics-ps2-clickpad-1finger-long-45contacts.evemu",
        "../shared/recordings/04-3m-microtouch-touchscreen-60slot-long.evemu",
    ].filter { access($0, R_OK) == 0 }
}

print("strokes-bench: median of 9 runs; each run parses the file once and decodes it 200 times (the C peer too)")
let peer = SlotLoopPeer.build()
for path in paths {
    let (bytes, recording) = load(path)
    let device = recording.devices[0]
    let events = Double(device.events.count)
    let name = path.split(separator: "/").last!

    let parse = measure(runs: 9) { _ = try! RecordingReader.read(bytes, file: path) }

    let repeats = 200
    var frames = 0
    var strokeEvents = 0
    // Interleaved with the peer's runs (same events, same number of passes per run), so both see the
    // same load.
    var decodeTimes: [Double] = []
    var gestureTimes: [Double] = []
    var decodeOnlyTimes: [Double] = []
    var peerRates: [Double] = []
    for _ in 0..<9 {
        decodeTimes.append(measure(runs: 1) { (frames, strokeEvents) = pipeline(device, repeat: repeats) })
        decodeOnlyTimes.append(measure(runs: 1) { _ = decodeOnly(device, repeat: repeats) })
        gestureTimes.append(measure(runs: 1) { _ = pipeline(device, repeat: repeats, gestures: true) })
        if let rate = peer?.eventsPerSecond(path, repeats: repeats) { peerRates.append(rate) }
    }
    let decode = median(decodeTimes)
    let withGestures = median(gestureTimes)
    let before = cmalloc_count()
    _ = pipeline(device, repeat: 1)
    let allocations = Double(cmalloc_count() - before)
    let gesturesBefore = cmalloc_count()
    _ = pipeline(device, repeat: 1, gestures: true)
    let gestureAllocations = Double(cmalloc_count() - gesturesBefore)
    let framesOnce = Double(frames / repeats)

    let (sample, t) = trackedPass(device)
    // What the tracker's history keeps of a completed stroke's points (`CompletedStroke`).
    let packed = t.completed.reduce(0) { $0 + $1.pointBytes }, points = t.completed.reduce(0) { $0 + $1.pointCount }
    let history = "\(JSONWriter.fixed(Double(packed) / Double(max(points, 1)), decimals: 2)) bytes/point packed "
        + "(\(t.completed.count) completed strokes, \(points) points; a StrokePoint takes \(MemoryLayout<StrokePoint>.stride))"
    let geometry = DeviceGeometry(description: device.description)
    var writer = JSONWriter(capacity: 1024)
    var bytesOut = 0
    let encoding = measure(runs: 9) { bytesOut = encode(sample, geometry: geometry, into: &writer) }
    let encodeBefore = cmalloc_count()
    _ = encode(sample, geometry: geometry, into: &writer)
    let encodeAllocations = Double(cmalloc_count() - encodeBefore)

    print("")
    print("\(name): \(Int(events)) events, \(Int(framesOnce)) frames, \(strokeEvents / repeats) stroke events")
    print("  evemu parse        \(format(events / parse))events/s")
    print("  decode + track     \(format(events * Double(repeats) / decode))events/s, \(format(Double(frames) / decode))frames/s")
    if !peerRates.isEmpty {
        let c = median(peerRates)
        print("  c_slot_loop.c      \(format(c))events/s; strokes / C = \(JSONWriter.fixed(events * Double(repeats) / decode / c, decimals: 2))")
        let alone = events * Double(repeats) / median(decodeOnlyTimes)
        print("  decode alone       \(format(alone))events/s (no tracker); / C = \(JSONWriter.fixed(alone / c, decimals: 2)), \(Int((100 * median(decodeOnlyTimes) / decode).rounded())) % of decode + track")
    }
    print("  allocations        \(JSONWriter.fixed(allocations / framesOnce, decimals: 3)) per frame (\(Int(allocations)) for one pass, setup included)")
    print("  + gestures         \(format(events * Double(repeats) / withGestures))events/s (\(JSONWriter.fixed(withGestures / decode, decimals: 2))× the time), \(JSONWriter.fixed(gestureAllocations / framesOnce, decimals: 3)) allocations per frame (\(Int(gestureAllocations)) for one pass)")
    print("  history            \(history)")
    print("  JSON encode        \(format(Double(sample.count) / encoding))stroke events/s, \(format(Double(bytesOut) / encoding))B/s (\(bytesOut / max(sample.count, 1)) bytes/event, \(JSONWriter.fixed(encodeAllocations / Double(max(sample.count, 1)), decimals: 3)) allocations/event)")
}
peer?.remove()
