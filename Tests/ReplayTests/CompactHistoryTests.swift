import Foundation
import InputCore
import MultitouchDecoder
import StrokePipeline
import StrokeRecording
@testable import StrokeTracker
import Testing

/// The history keeps completed strokes packed (`CompletedStroke`): each must come back as the
/// very `Stroke` the tracker completed, every point bit for bit.
@Suite struct CompactHistoryTests {
    static var files: [String] {
        var out = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path))?
            .filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".yml") || $0.hasSuffix(".txt") }
            .map { Fixtures.path($0) } ?? []
        if let shared = Fixtures.sharedRecordings,
            let names = try? FileManager.default.contentsOfDirectory(atPath: shared.path)
        {
            out += names.filter { $0.first!.isNumber }.map { shared.appendingPathComponent($0).path }
        }
        return out.sorted()
    }

    /// Every stroke a recording completes, with the history packed and, for reference, not.
    @Test(arguments: files)
    func everyCompletedStrokeRoundTrips(path: String) throws {
        let recording = try RecordingReader.read(path: path)
        var strokes = 0, points = 0, bytes = 0
        for recorded in recording.devices {
            let packed = try history(of: recorded, packing: true)
            let reference = try history(of: recorded, packing: false)
            #expect(packed.count == reference.count)
            for (c, r) in zip(packed, reference) {
                #expect(c.isPacked, "stroke \(c.id) of \(path) kept unpacked")
                let s = c.stroke
                #expect(s == r.stroke, "stroke \(c.id) of \(path)")
                #expect(sameBits(s.points, r.stroke.points), "stroke \(c.id) of \(path)")
            }
            strokes += packed.count
            bytes += packed.reduce(0) { $0 + $1.pointBytes }
            points += packed.reduce(0) { $0 + $1.pointCount }
        }
        #expect(strokes > 0, "no completed stroke in \(path)")
        // An eighth of the 112 bytes of a `StrokePoint`, mask and first point included.
        #expect(bytes * 8 < points * MemoryLayout<StrokePoint>.stride, "\(bytes) bytes for \(points) points")
    }

    /// A calibration changed while a stroke is in progress: its points are derived with two
    /// geometries, so the history keeps them as they are, and strokes begun after it pack again.
    @Test func aStrokeAcrossACalibrationChangeIsKeptAsItWas() throws {
        let d = Self.device(x: AbsInfo(minimum: 0, maximum: 1000, resolution: 10), y: AbsInfo(minimum: 0, maximum: 500, resolution: 10))
        let plain = DeviceGeometry(description: d)
        var inverted = plain
        inverted.calibration = .invertX
        var t = StrokeTracker(historyLimit: 8)
        t.addDevice(DeviceID(1), geometry: plain)
        t.setJumpDetection(nil, of: DeviceID(1))
        var out: [StrokeEvent] = []
        func contact(_ kind: ContactEvent.Kind, _ x: Int32, _ us: Int64, frame: UInt64) {
            let e = ContactEvent(kind: kind, slot: 0, trackingID: 7, time: Timestamp(microseconds: us), sample: ContactSample(x: x, y: 100))
            t.apply([e], device: DeviceID(1), frame: frame, into: &out)
        }
        contact(.began, 100, 0, frame: 1)
        t.setCalibration(.invertX, of: DeviceID(1))
        contact(.moved, 200, 10, frame: 2)
        contact(.ended, 300, 20, frame: 3)
        contact(.began, 100, 30, frame: 4)
        contact(.ended, 150, 40, frame: 5)
        let kept = Array(t.completed)
        #expect(kept.map(\.isPacked) == [false, true])
        func nx(_ g: DeviceGeometry, _ x: Int32) -> Double { g.calibration.apply(g.normalized(x: x), g.normalized(y: 100)).0 }
        #expect(kept[0].stroke.points.map(\.nx) == [nx(plain, 100), nx(inverted, 200), nx(inverted, 300)])
        #expect(kept[1].stroke.points.map(\.nx) == [nx(inverted, 100), nx(inverted, 150)])
    }

    /// A change of geometry that derives points alike (here: jump detection, and another device
    /// added) while a stroke is in progress: its points stay packed, and come back as they were.
    @Test func aGeometryChangeThatDerivesAlikeKeepsPacking() throws {
        let d = Self.device(x: AbsInfo(minimum: 0, maximum: 1000, resolution: 10), y: AbsInfo(minimum: 0, maximum: 500, resolution: 10))
        func run(packing: Bool) -> [CompletedStroke] {
            var t = StrokeTracker(historyLimit: 8)
            t.packsHistory = packing
            t.addDevice(DeviceID(1), geometry: DeviceGeometry(description: d))
            t.setJumpDetection(nil, of: DeviceID(1))
            var out: [StrokeEvent] = []
            func contact(_ kind: ContactEvent.Kind, _ x: Int32, _ us: Int64, frame: UInt64) {
                let e = ContactEvent(kind: kind, slot: 0, trackingID: 7, time: Timestamp(microseconds: us), sample: ContactSample(x: x, y: 100))
                t.apply([e], device: DeviceID(1), frame: frame, into: &out)
            }
            contact(.began, 100, 0, frame: 1)
            t.setJumpDetection(JumpDetection(thresholdMM: 1000, growthMM: 1000), of: DeviceID(1))
            contact(.moved, 200, 10_000, frame: 2)
            t.addDevice(DeviceID(2), geometry: DeviceGeometry(description: d))
            contact(.moved, 250, 20_000, frame: 3)
            #expect(t.live.map(\.points.count) == [3])
            contact(.ended, 300, 30_000, frame: 4)
            return Array(t.completed)
        }
        let packed = run(packing: true), plain = run(packing: false)
        #expect(packed.map(\.isPacked) == [true])
        #expect(packed.map(\.stroke) == plain.map(\.stroke))
        #expect(packed[0].stroke.points.map(\.x) == [100, 200, 250, 300])
    }

    /// Strokes in progress (`live`, `inProgress`) come back with every point, packed or not.
    @Test(arguments: files)
    func strokesInProgressComeBackWithTheirPoints(path: String) throws {
        let recording = try RecordingReader.read(path: path)
        for recorded in recording.devices {
            var trackers = [true, false].map { packing -> StrokeTracker in
                var t = StrokeTracker(historyLimit: 16)
                t.packsHistory = packing
                return t
            }
            var pipelines = try trackers.indices.map { i in
                try DevicePipeline(
                    id: DeviceID(1), description: recorded.description,
                    geometry: DeviceGeometry(description: recorded.description), tracker: &trackers[i])
            }
            var assembler = FrameAssembler()
            var out: [StrokeEvent] = []
            var frames = 0
            for event in recorded.events {
                guard let input = assembler.feed(event) else { continue }
                for i in trackers.indices { pipelines[i].process(input, tracker: &trackers[i], into: &out) }
                frames += 1
                if frames % 97 == 0 {
                    #expect(trackers[0].live == trackers[1].live, "\(path), frame \(frames)")
                    #expect(trackers[0].inProgress == trackers[1].inProgress, "\(path), frame \(frames)")
                }
            }
        }
    }

    /// Values at the ends of their ranges, and deltas that overflow 32 bits, come back.
    @Test func extremeValuesRoundTrip() throws {
        let g = DeviceGeometry(description: Self.device(
            x: AbsInfo(minimum: Int32.min, maximum: Int32.max), y: AbsInfo(minimum: -5, maximum: 5)))
        func point(_ us: Int64, _ v: Int32, _ serial: UInt32) -> StrokePoint {
            var s = ContactSample(x: v, y: ~v, pressure: v, touchMajor: v, touchMinor: v, orientation: v, toolType: v)
            (s.distance, s.tiltX, s.tiltY, s.rotation, s.wheel, s.toolID) = (v, v, v, v, v, v)
            s.serial = serial
            s.buttons = [.stylus, .stylus3]
            s.known = KnownAxes(rawValue: UInt16(truncatingIfNeeded: serial) & 0x7fff)
            return StrokePoint(time: Timestamp(microseconds: us), sample: s, geometry: g)
        }
        let points = [
            point(Int64.min, Int32.min, UInt32.max), point(Int64.max, Int32.max, 0), point(0, 0, 1),
            point(-1, -1, 0x8000_0000), point(-1, -1, 0x8000_0000),
        ]
        let stroke = Stroke(
            id: StrokeID(rawValue: 1), device: DeviceID(1), slot: 3, trackingID: nil, flags: [.adopted, .jump],
            state: .cancelled(.palm), firstFrame: 9, points: points, lastFrame: 12)
        let c = CompletedStroke(stroke, geometry: g)
        #expect(c.isPacked)
        #expect(c.stroke == stroke && sameBits(c.stroke.points, points))
    }

    @Test func theHistoryIsAFixedRingOldestFirst() {
        var h = BoundedHistory<Int>(capacity: 3)
        for i in 1...5 { h.append(i) }
        #expect(Array(h) == [3, 4, 5] && h.first == 3 && h[2] == 5 && h.appended == 5)
        #expect(Array(h[1...]) == [4, 5])
    }

    static func device(x: AbsInfo, y: AbsInfo) -> DeviceDescription {
        DeviceDescription(
            name: "test touchscreen", id: InputID(bustype: 3, vendor: 1, product: 2, version: 3),
            properties: [InputProperty.direct], codes: [.key: [KeyCode.btnTouch]],
            absInfo: [
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                AbsCode.mtPositionX: x, AbsCode.mtPositionY: y,
            ])
    }

    private func history(of recorded: RecordedDevice, packing: Bool) throws -> [CompletedStroke] {
        var tracker = StrokeTracker(historyLimit: 1 << 20)
        tracker.packsHistory = packing
        var pipeline = try DevicePipeline(
            id: DeviceID(1), description: recorded.description, geometry: DeviceGeometry(description: recorded.description),
            tracker: &tracker)
        var assembler = FrameAssembler()
        var out: [StrokeEvent] = []
        for event in recorded.events {
            guard let input = assembler.feed(event) else { continue }
            _ = pipeline.process(input, tracker: &tracker, into: &out)
        }
        return Array(tracker.completed)
    }

    /// Equal, and the derived coordinates equal bit for bit (`==` takes 0 for -0).
    private func sameBits(_ a: [StrokePoint], _ b: [StrokePoint]) -> Bool {
        guard a.count == b.count else { return false }
        for (p, q) in zip(a, b) {
            let coordinates = [p.nx, p.ny, p.mmX ?? 0, p.mmY ?? 0].map(\.bitPattern)
            guard p == q, coordinates == [q.nx, q.ny, q.mmX ?? 0, q.mmY ?? 0].map(\.bitPattern) else { return false }
        }
        return true
    }
}
