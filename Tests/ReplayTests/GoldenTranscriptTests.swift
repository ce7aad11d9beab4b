import Foundation
import MultitouchDecoder
import StrokeRecording
import StrokeReplay
import StrokeTracker
import Testing

/// Real recordings against transcripts that were checked by hand once (see Golden/README.md).
@Suite struct GoldenTranscriptTests {
    static let goldens = [
        "03-atmel-maxtouch-touchscreen-4finger-drag",
        "09-cypress-ps2-semi-mt-touchpad-3finger-press",
        "11-synaptics-ps2-clickpad-2finger-vert-scroll",
        "16-wacom-cintiq13hd-pen-hover-tilt",
        "17-wacom-cintiq12wx-pen-and-eraser",
        "18-wacom-dth2242-pen-buttons",
        "19-dell-canvas-isdv4-pen-tilt",
        // `strokes replay --hover`: the same with hover events.
        "16-wacom-cintiq13hd-pen-hover-tilt.hover",
        // `strokes replay --gestures`: with gesture events (docs/gestures.md).
        "03-atmel-maxtouch-touchscreen-4finger-drag.gestures",
        "11-synaptics-ps2-clickpad-2finger-vert-scroll.gestures",
    ]

    @Test(arguments: goldens)
    func replayMatchesGolden(name: String) throws {
        let hover = name.hasSuffix(".hover")
        let gestures = name.hasSuffix(".gestures")
        let recording = hover ? String(name.dropLast(".hover".count)) : gestures ? String(name.dropLast(".gestures".count)) : name
        let lines = try Fixtures.transcript(Fixtures.recording(recording + ".evemu"), hover: hover, gestures: gestures)
        let golden = try String(contentsOf: Fixtures.goldenDirectory.appendingPathComponent(name + ".jsonl"), encoding: .utf8)
        let expected = golden.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count)
        for (i, (a, b)) in zip(lines, expected).enumerated() where a != b {
            Issue.record("line \(i + 1) differs:\n got      \(a)\n expected \(b)")
            break
        }
    }

    /// The same real events in three containers give the same strokes. libinput record times are
    /// relative to the first event, evemu's here start at 0.000001: only `time` may differ, by
    /// that constant.
    @Test func evemuEvtestAndLibinputRecordGiveTheSameStrokes() throws {
        func strip(_ lines: [String]) -> [String] {
            lines.map { $0.replacingOccurrences(of: #""time":\d+,"#, with: "", options: .regularExpression) }
        }
        let evemu = try Fixtures.transcript(Fixtures.recording("03-atmel-maxtouch-touchscreen-4finger-drag.evemu"))
        let evtest = try Fixtures.transcript(Fixtures.recording("03-atmel-maxtouch-touchscreen-4finger-drag.evtest.txt"))
        let yaml = try Fixtures.transcript(Fixtures.recording("03-atmel-maxtouch-touchscreen-4finger-drag.libinput.yml"))
        #expect(evemu == evtest)
        #expect(strip(evemu) == strip(yaml))
        #expect(evemu.count == 107)
    }

    @Test func multiDeviceLibinputRecordingInterleavesDevicesByTime() throws {
        let recording = try Fixtures.recording("03+11-two-devices.libinput.yml")
        #expect(recording.devices.map(\.description.name) == ["Atmel maXTouch Touchscreen", "SynPS/2 Synaptics TouchPad"])
        #expect(recording.devices.map(\.node) == ["/dev/input/event5", "/dev/input/event6"])
        var replayer = try Replayer(recording: recording)
        let events = try replayer.runToEnd()
        #expect(events.map(\.point.time) == events.map(\.point.time).sorted(), "events come out in time order")
        #expect(Set(events.map(\.device.rawValue)) == [1, 2])
        #expect(Set(events.map(\.stroke)).count == 6, "stroke ids are unique across devices")
        #expect(replayer.finalSummary.mostConcurrent == 6)
    }
}
