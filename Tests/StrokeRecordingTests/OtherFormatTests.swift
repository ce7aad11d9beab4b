import InputCore
import StrokeRecording
import Testing

@Suite struct LibinputRecordReaderTests {
    static let good = """
        version: 1
        ndevices: 1
        unknownTopLevelKey: {ignored: true}
        devices:
          - node: /dev/input/event9
            evdev:
              name: Synaptics TM2668-002
              id: [29, 1739, 0, 0]
              codes:
                0: [0, 1, 2, 3]
                1: [330]
                3: [47, 53, 54, 57]
              absinfo:
                47: [0, 4, 0, 0, 0]
                53: [0, 4089, 0, 0, 42]
                54: [0, 2811, 0, 0, 41]
                57: [0, 65535, 0, 0, 0]
              properties: [0, 2]
            hid: [1, 2, 3]
            events:
              - hid: {time: [0, 0], hidraw0: [1, 2]}
              - evdev:
                - [  0,      0,   3,  57,  1420] # EV_ABS / ABS_MT_TRACKING_ID   1420
                - [  0,      0,   3,  53,  1218]
                - [  0,      0,   0,   0,     0]
              - evdev:
                - [  0,  11879,   3,  53,  1330]
                - [  0,  11879,   0,   0,     0]
        """

    @Test func readsVersion1AndIgnoresUnknownKeys() throws {
        let rec = try RecordingReader.read(bytes(Self.good), file: "r.yml")
        #expect(rec.format == .libinputRecord)
        let dev = rec.devices[0]
        #expect(dev.node == "/dev/input/event9")
        #expect(dev.description.name == "Synaptics TM2668-002")
        #expect(dev.description.id == InputID(bustype: 29, vendor: 1739, product: 0, version: 0))
        #expect(dev.description.properties == [0, 2])
        #expect(dev.description.absInfo[AbsCode.mtPositionX]?.resolution == 42)
        #expect(dev.events.count == 5)
        #expect(dev.events[3].time.microseconds == 11879 && dev.events[3].value == 1330)
    }

    @Test(arguments: [
        ("version: 2\ndevices: []\n", 1, "unsupported libinput-record version 2"),
        ("ndevices: 1\ndevices: []\n", 1, "expected a 'version' key"),
        ("version: 1\ndevices: [\n", 3, "invalid YAML"),
        ("version: 1\ndevices:\n  - evdev: {name: x, id: [1, 2, 3]}\n", 3, "expected 'id' to have 4 numbers"),
        ("version: 1\ndevices:\n  - evdev: {name: x, id: [1, 2, 3, 4]}\n    events:\n      - evdev:\n        - [0, 0, 3, 53]\n", 6,
         "expected an event [sec, usec, type, code, value], found 4 numbers"),
        ("version: 1\ndevices:\n  - evdev: {name: x, id: [1, 2, 3, 4], absinfo: {53: [0, big, 0, 0, 0]}}\n", 3, "expected an integer for max"),
        // The kernel has an absinfo for every axis: one declared without is a cut or edited file.
        ("version: 1\ndevices:\n  - evdev:\n      name: x\n      id: [1, 2, 3, 4]\n      codes: {3: [53, 54]}\n      absinfo: {53: [0, 9, 0, 0, 0]}\n", 7,
         "declares axis 0x36 but gives no range for it"),
    ] as [(String, Int?, String)])
    func malformedLibinputRecord(text: String, line: Int?, fragment: String) throws {
        let e = try #require(readError(text, file: "r.yml"))
        #expect(e.file == "r.yml")
        #expect(e.line == line, "\(e)")
        #expect(e.message.contains(fragment), "\(e)")
    }
}

@Suite struct EvtestReaderTests {
    static let good = """
        Input driver version is 1.0.1
        Input device ID: bus 0x18 vendor 0x0 product 0x0 version 0x0
        Input device name: "Atmel maXTouch Touchpad"
        Supported events:
          Event type 0 (EV_SYN)
          Event type 1 (EV_KEY)
            Event code 330 (BTN_TOUCH)
          Event type 3 (EV_ABS)
            Event code 47 (ABS_MT_SLOT)
              Value      2
              Min        0
              Max        9
            Event code 53 (ABS_MT_POSITION_X)
              Value      0
              Min        0
              Max     2039
              Fuzz       3
              Resolution      20
          Event type 4 (EV_MSC)
            Event code 4 (MSC_SCAN)
        Properties:
          Property type 1 (INPUT_PROP_DIRECT)
        Testing ... (interrupt to exit)
        Event: time 7094.666531, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 24
        Event: time 7094.666531, type 4 (EV_MSC), code 4 (MSC_SCAN), value 90001
        Event: time 7094.666542, -------------- SYN_REPORT ------------
        Event: time 7094.7, >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<
        """

    @Test func readsHeaderAndEvents() throws {
        let rec = try RecordingReader.read(bytes(Self.good), file: "e.txt")
        #expect(rec.format == .evtest)
        let d = rec.devices[0].description
        #expect(d.name == "Atmel maXTouch Touchpad")
        #expect(d.id.bustype == 0x18)
        #expect(d.properties == [InputProperty.direct])
        #expect(d.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 2039, fuzz: 3, resolution: 20))
        #expect(d.initialSlot == 2)
        #expect(d.currentValues == [AbsCode.mtSlot, AbsCode.mtPositionX], "the axes with a Value line")
        let events = rec.devices[0].events
        #expect(events.count == 4)
        #expect(events[1].value == 0x90001, "MSC_SCAN values are printed in hex")
        #expect(events[2].isSynReport && events[3].isSynDropped)
        #expect(events[0].time == Timestamp(seconds: 7094, microseconds: 666531))
        #expect(rec.devices[0].truncatedTail == nil, "a trailing SYN_DROPPED is not an event of an unfinished frame")
    }

    @Test(arguments: [
        ("Input device ID: bus 0x18 vendor 0x0 product 0x0 version 0x0\nInput device name: \"A\"\nEvent: time 1.0, type 3 (EV_ABS), value 1\n", 3, "expected 'Event: time"),
        ("Event: time 1.0, -------------- SYN_REPORT ------------\n", 1, "header"),
        ("Input device ID: bus zz\n", 1, "Input device ID"),
        ("Input device ID: bus 0x18 vendor 0x0 product 0x0 version 0x0\nInput device name: \"A\"\nEvent: time 1.0, -------------- SYN_REPORT ------------\nEvent: time 1.0, type 3 (EV_ABS), code x (ABS_X), value 1\n", 4, "expected 'Event: time"),
        // An axis's values without its code line (a paste that mangled ":    Event code 0 (X)",
        // adversary script 121): refused there, not read as a device without the axis.
        ("Input device ID: bus 0x3 vendor 0xeef product 0x1 version 0x100\nInput device name: \"T\"\nSupported events:\n  Event type 3 (Absolute)\n:    Event code 0 (X)\n      Value    280\n      Min        0\n", 6, "expected an 'Event code N (NAME)' line of an axis before 'Value    280'"),
    ])
    func malformedEvtest(text: String, line: Int, fragment: String) throws {
        let e = try #require(readError(text, file: "e.txt"))
        #expect(e.line == line, "\(e)")
        #expect(e.message.contains(fragment), "\(e)")
    }
}
