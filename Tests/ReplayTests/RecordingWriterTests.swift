import Evdev
import Foundation
import InputCore
import StrokeRecording
import Testing

/// `strokes record` writes what the readers read: every bundled recording, written back as evemu
/// or as libinput record YAML and read again, gives the same device and the same events (times
/// relative to the first).
@Suite struct RecordingWriterTests {
    static let fixtures = [
        "01-wacom-dth2242-touchscreen-10finger.evemu", "03-atmel-maxtouch-touchscreen-4finger-drag.evemu",
        "09-cypress-ps2-semi-mt-touchpad-3finger-press.evemu", "11-synaptics-ps2-clickpad-2finger-vert-scroll.evemu",
        "03-atmel-maxtouch-touchscreen-4finger-drag.libinput.yml",
    ]

    static let names = EvemuWriter.Names(type: EventNames.typeName, code: EventNames.codeName)

    @Test(arguments: fixtures)
    func roundTrip(_ name: String) throws {
        let original = try RecordingReader.read(path: Fixtures.path(name)).devices[0]
        // Only EV_KEY and EV_ABS codes are what strokes reads and writes.
        var description = original.description
        description.codes = description.codes.filter { $0.key == .key || $0.key == .abs }
        let start = original.events.first!.time
        var text = EvemuWriter.header(description, names: Self.names, comments: ["recorded by strokes (test)"])
        for e in original.events { text += EvemuWriter.eventLine(e, start: start, names: Self.names) }

        try Self.expectSame(original, description, try RecordingReader.read(Array(text.utf8), file: "roundtrip.evemu").devices[0])
    }

    @Test(arguments: fixtures)
    func yamlRoundTrip(_ name: String) throws {
        let original = try RecordingReader.read(path: Fixtures.path(name)).devices[0]
        var description = original.description
        description.codes = description.codes.filter { $0.key == .key || $0.key == .abs }
        // The name carries what YAML must escape.
        description.name += " \"quoted\" \\ back®"
        let start = original.events.first!.time
        var text = LibinputRecordWriter.header(
            description, node: "/dev/input/event7", kernel: "6.1.0-test", names: Self.names, comments: ["Slot 0: test"])
        var frame: [InputEvent] = []
        for e in original.events {
            frame.append(e)
            if e.isSynReport {
                text += LibinputRecordWriter.frame(frame, start: start, names: Self.names)
                frame.removeAll()
            }
        }
        let recording = try RecordingReader.read(Array(text.utf8), file: "roundtrip.yml")
        #expect(recording.format == .libinputRecord)
        #expect(recording.devices[0].node == "/dev/input/event7")
        // libinput record has no absinfo values: compare the rest.
        var again = recording.devices[0]
        for (code, info) in description.absInfo { again.description.absInfo[code]?.value = info.value }
        try Self.expectSame(original, description, again)
    }

    static func expectSame(_ original: RecordedDevice, _ description: DeviceDescription, _ again: RecordedDevice) throws {
        let start = original.events.first!.time
        #expect(again.description.name == description.name)
        #expect(again.description.id == description.id)
        #expect(again.description.properties == description.properties)
        #expect(again.description.codes[.key] == description.codes[.key])
        #expect(again.description.codes[.abs] == description.codes[.abs])
        #expect(again.description.absInfo == description.absInfo)
        #expect(again.events.count == original.events.count)
        #expect(again.events.map { $0.time.microseconds - again.events[0].time.microseconds } == original.events.map { $0.time.microseconds - start.microseconds })
        #expect(again.events.map(\.value) == original.events.map(\.value))
        #expect(again.events.map(\.code) == original.events.map(\.code))
    }
}
