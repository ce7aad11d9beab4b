// Measures the core pipeline on real recordings. Run in release:
//
//     swift run -c release strokes-bench [RECORDING ...]
//
// Defaults to the longest bundled recordings plus ../shared/recordings/04 when present. Reports,
// per recording: evemu parsing (events/s), decode + track (events/s, frames/s, allocations per
// frame) and JSON encoding of the stroke events as the daemon encodes them (events/s, bytes,
// allocations per event). Each figure is the median of the runs. Decode + track runs
// interleaved with the C peer (`Peer.swift`), whose figure and the ratio are printed beside strokes'.

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

/// Decode + track over every frame of `device`, `repeat` times through the recording, through
/// `DevicePipeline` as the daemon and `strokes replay` run it; with `gestures`, each frame's
/// stroke events also go through the device's gesture recogniser, as the daemon's `Hub` does.
func pipeline(_ device: RecordedDevice, repeat count: Int, gestures: Bool = false) -> (frames: Int, strokeEvents: Int) {
    var frames = 0
    var strokeEvents = 0
    var out: [StrokeEvent] = []
    out.reserveCapacity(64)
    var steps: [Gesture] = []
    steps.reserveCapacity(16)
    let geometry = DeviceGeometry(description: device.description)
    for _ in 0..<count {
        var assembler = FrameAssembler()
        var tracker = StrokeTracker(historyLimit: 256)
        var pipeline = try! DevicePipeline(id: DeviceID(1), description: device.description, geometry: geometry, tracker: &tracker)
        var recognizers = GestureRecognizers()
        if gestures { recognizers.add(DeviceID(1), geometry: geometry, kind: device.description.kind) }
        // As reads hand them: frames decoded in place from the buffer (`FrameAssembler.feed(_:_:)`);
        // a frame split between two reads is assembled.
        device.events.withUnsafeBufferPointer { all in
            var offset = 0
            while offset < all.count {
                let read = UnsafeBufferPointer(rebasing: all[offset..<min(offset + readSize, all.count)])
                offset += read.count
                assembler.feed(read) { input in
                    pipeline.process(input, tracker: &tracker, into: &out)
                    if gestures {
                        recognizers.process(out, device: DeviceID(1), time: pipeline.lastTime, into: &steps)
                        if !steps.isEmpty { steps.removeAll(keepingCapacity: true) }
                    }
                    strokeEvents += out.count
                    if !out.isEmpty { out.removeAll(keepingCapacity: true) }
                }
            }
        }
        frames += Int(pipeline.frames)
    }
    return (frames, strokeEvents)
}

var paths = Array(CommandLine.arguments.dropFirst())
// `strokes-bench --profile RECORDING [PASSES]`: only decode + track, for `perf record`.
if paths.first == "--profile", paths.count >= 2 {
    let device = try RecordingReader.read(try RecordingReader.readFile(paths[1]), file: paths[1]).devices[0]
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
    let bytes = try RecordingReader.readFile(path)
    let recording = try RecordingReader.read(bytes, file: path)
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
    var peerRates: [Double] = []
    for _ in 0..<9 {
        decodeTimes.append(measure(runs: 1) { (frames, strokeEvents) = pipeline(device, repeat: repeats) })
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

    var geometry = DeviceGeometry(description: device.description)
    var sample: [StrokeEvent] = []
    var history = ""
    do {
        var d = try MultitouchDecoder(description: device.description)
        var t = StrokeTracker()
        t.addDevice(DeviceID(1), geometry: geometry)
        var a = FrameAssembler()
        var c: [ContactEvent] = []
        for e in device.events {
            guard let i = a.feed(e) else { continue }
            d.process(i, into: &c)
            t.apply(c, device: DeviceID(1), frame: 1, into: &sample)
            c.removeAll()
        }
        // What the tracker's history keeps of a completed stroke's points (`CompletedStroke`).
        let packed = t.completed.reduce(0) { $0 + $1.pointBytes }, points = t.completed.reduce(0) { $0 + $1.pointCount }
        history = "\(JSONWriter.fixed(Double(packed) / Double(max(points, 1)), decimals: 2)) bytes/point packed "
            + "(\(t.completed.count) completed strokes, \(points) points; a StrokePoint takes \(MemoryLayout<StrokePoint>.stride))"
    }
    geometry = DeviceGeometry(description: device.description)
    // The daemon's encode call (`Hub`): each event into one reused writer, with its `seq`.
    var writer = JSONWriter(capacity: 1024)
    var bytesOut = 0
    let encode = measure(runs: 9) {
        bytesOut = 0
        for (i, e) in sample.enumerated() {
            _ = e.encode(geometry: geometry, seq: UInt64(i + 1), into: &writer)
            bytesOut += writer.byteCount
        }
    }
    let encodeBefore = cmalloc_count()
    for (i, e) in sample.enumerated() { _ = e.encode(geometry: geometry, seq: UInt64(i + 1), into: &writer) }
    let encodeAllocations = Double(cmalloc_count() - encodeBefore)

    print("")
    print("\(name): \(Int(events)) events, \(Int(framesOnce)) frames, \(strokeEvents / repeats) stroke events")
    print("  evemu parse        \(format(events / parse))events/s")
    print("  decode + track     \(format(events * Double(repeats) / decode))events/s, \(format(Double(frames) / decode))frames/s")
    if !peerRates.isEmpty {
        let c = median(peerRates)
        print("  c_slot_loop.c      \(format(c))events/s; strokes / C = \(JSONWriter.fixed(events * Double(repeats) / decode / c, decimals: 2))")
    }
    print("  allocations        \(JSONWriter.fixed(allocations / framesOnce, decimals: 3)) per frame (\(Int(allocations)) for one pass, setup included)")
    print("  + gestures         \(format(events * Double(repeats) / withGestures))events/s (\(JSONWriter.fixed(withGestures / decode, decimals: 2))× the time), \(JSONWriter.fixed(gestureAllocations / framesOnce, decimals: 3)) allocations per frame (\(Int(gestureAllocations)) for one pass)")
    print("  history            \(history)")
    print("  JSON encode        \(format(Double(sample.count) / encode))stroke events/s, \(format(Double(bytesOut) / encode))B/s (\(bytesOut / max(sample.count, 1)) bytes/event, \(JSONWriter.fixed(encodeAllocations / Double(max(sample.count, 1)), decimals: 3)) allocations/event)")
}
peer?.remove()
