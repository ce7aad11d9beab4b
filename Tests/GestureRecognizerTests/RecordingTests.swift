import Foundation
import GestureRecognizer
import InputCore
import StrokeRecording
import StrokeReplay
import StrokeTracker
import Testing

/// Real recordings (docs/gestures.md, "What the real recordings give"), as `strokes replay
/// --gestures` sees them: each step as "kind phase fingers", updates left out.
@Suite struct RecordingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ReplayTests/Fixtures")
    /// `../shared/recordings` beside the repository, when present (recording 14 lives there).
    static var shared: URL? {
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { dir.deleteLastPathComponent() }
        let url = dir.deletingLastPathComponent().appendingPathComponent("shared/recordings")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    static func gestures(_ path: String) throws -> [Gesture] {
        var replayer = try Replayer(recording: try RecordingReader.read(path: path))
        var recognizers = GestureRecognizers()
        for d in replayer.devices { recognizers.add(d.id, geometry: d.geometry, kind: d.description.kind) }
        var events: [StrokeEvent] = []
        var out: [Gesture] = []
        while let step = try replayer.next(into: &events) {
            recognizers.process(events, device: step.device, time: step.time, into: &out)
            events.removeAll()
        }
        return out
    }

    static func steps(_ gestures: [Gesture]) -> [String] {
        gestures.filter { $0.phase != .update }.map { "\($0.kind) \($0.phase) \($0.fingers)" }
    }

    @Test func fourFingersDraggingDownAreAFourFingerSwipeDown() throws {
        let g = try Self.gestures(Self.fixtures.appendingPathComponent("03-atmel-maxtouch-touchscreen-4finger-drag.evemu").path)
        #expect(Self.steps(g) == ["swipe begin 4", "swipe end 4"])
        #expect(g.allSatisfy { $0.direction == .down && $0.strokes.map(\.rawValue) == [1, 2, 3, 4] })
        #expect(g.first?.time == Timestamp(microseconds: 222_183), "100 ms after the fourth finger landed (111.1 ms)")
        #expect(g.last?.time == Timestamp(microseconds: 539_139), "the first finger up")
        #expect((g.last?.displacement?.dny ?? 0) > 0.3 && g.last?.velocity == nil, "no resolution: normalised only")
    }

    @Test func twoFingersScrollingAreATwoFingerSwipe() throws {
        let g = try Self.gestures(Self.fixtures.appendingPathComponent("11-synaptics-ps2-clickpad-2finger-vert-scroll.evemu").path)
        #expect(Self.steps(g) == ["swipe begin 2", "swipe end 2"])
        #expect(g.first?.direction == .down, "the scroll starts downwards")
        #expect(Set(g.map(\.id)) == [1])
    }

    /// The touchpad drumroll: two fingers tapping in turn. Its firmware reports one contact that
    /// jumps between them; split (docs/decoder.md, "Touch jumps"), each landing is a tap. Where
    /// two fingers overlap (one lands before the other lifts) it is a two-finger tap; the last
    /// five contacts overlap in a chain (a finger lands after one lifted while another is still
    /// down) and are no tap. No double taps: each tap starts as the previous one lifts, under
    /// `doubleTapMinTime`.
    @Test func theDrumrollsTapsAreTaps() throws {
        guard let shared = Self.shared else { return }
        let g = try Self.gestures(shared.appendingPathComponent("14-atmel-maxtouch-touchpad-drumroll-15contacts.evtest.txt").path)
        #expect(g.allSatisfy { $0.kind == .tap && $0.phase == .end })
        #expect(g.map(\.fingers) == [2, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 1, 2, 2, 2, 1, 1, 1, 1, 2, 2])
        #expect(g.reduce(0) { $0 + $1.fingers } == 29, "29 of the 34 strokes")
    }

    /// Ten fingers on a Wacom DTH-2242 (24 s): what it gives is pinned here. Single fingers
    /// dragging are swipes, short touches taps, a resting finger a hold; the sequences of more
    /// than five fingers give nothing; one pair of fingers is a pinch for a frame.
    @Test func tenFingersYieldWhatIsPinned() throws {
        let g = try Self.gestures(Self.fixtures.appendingPathComponent("01-wacom-dth2242-touchscreen-10finger.evemu").path)
        #expect(Self.steps(g) == [
            "swipe begin 1", "swipe end 1", "swipe begin 1", "swipe end 1", "swipe begin 1", "swipe end 1", "tap end 1",
            "swipe begin 1", "swipe end 1", "swipe begin 1", "swipe end 1", "swipe begin 1", "swipe end 1", "tap end 1",
            "swipe begin 1", "swipe end 1", "pinch begin 2", "pinch end 2", "swipe begin 1", "swipe end 1",
            "swipe begin 1", "swipe end 1", "tap end 1", "swipe begin 1", "swipe end 1", "hold begin 1", "hold end 1",
            "tap end 1",
        ])
        #expect(g.allSatisfy { $0.fingers <= 5 })
        #expect(g.contains { $0.velocity != nil && $0.centroid.mmX != nil }, "this one has a resolution")
    }
}
