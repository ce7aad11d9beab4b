import Foundation
import StrokeDaemon
import StrokeTracker
import Testing

@Suite struct ConfigurationTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/strokes.yaml").path

    @Test func theShippedFileParsesToTheDefaults() throws {
        let c = try DaemonConfiguration.load(path: ConfigurationTests.shipped)
        let d = DaemonConfiguration()
        #expect(c.socketPath == d.socketPath && c.socketMode == 0o660 && c.socketGroup == "strokes")
        // Not set explicitly: a host without the group starts with a warning (issue 11).
        #expect(!c.socketGroupConfigured)
        #expect(c.queue == d.queue && c.history == d.history && c.resume == d.resume)
        #expect(c.historyPageBytes == d.historyPageBytes && c.maxClients == d.maxClients)
        #expect(c.maxClientsPerUid == d.maxClientsPerUid && c.maxLineLength == d.maxLineLength)
        #expect(c.requestBurstBytes == d.requestBurstBytes && c.requestBytesPerSecond == d.requestBytesPerSecond)
        #expect(c.devices.isEmpty && !c.grab && c.replay == nil && c.calibrations.isEmpty)
    }

    @Test func everyKeyIsRead() throws {
        let c = try DaemonConfiguration.parse(
            """
            socket: {path: /tmp/x.sock, mode: "0600", group: "0", allowUids: [1000], allowGids: [5]}
            devices: {match: ["name:Wacom*", /dev/input/event3], grab: true, replay: a.evemu, loop: false, speed: 2.5}
            queue: {mergeAfter: 10, disconnectAfter: 20, disconnectAfterBytes: 100000, totalBytes: 200000, disconnectAfterSeconds: 2.5}
            historyPageBytes: 5000
            requests: {burstBytes: 100000, bytesPerSecond: 50000}
            maxClients: 9
            maxClientsPerUid: 4
            history: 3
            resume: 7
            maxLineLength: 1024
            calibration:
              - {match: "name:X", rotation: 90}
              - {match: "name:Y", invertX: true, matrix: [1, 0, 0.5, 0, 1, 0]}
            """, file: "t.yaml")
        #expect(c.socketPath == "/tmp/x.sock" && c.socketMode == 0o600 && c.socketGroup == "0" && c.socketGroupConfigured)
        #expect(c.allowUIDs == [1000] && c.allowGIDs == [5])
        #expect(c.devices == ["name:Wacom*", "/dev/input/event3"] && c.grab && c.replay == "a.evemu")
        #expect(!c.replayLoop && c.replaySpeed == 2.5)
        #expect(
            c.queue
                == QueueLimits(
                    mergeAfter: 10, disconnectAfter: 20, disconnectAfterBytes: 100000, totalBytes: 200000,
                    disconnectAfterStall: .milliseconds(2500)))
        #expect(c.historyPageBytes == 5000 && c.maxClients == 9 && c.maxClientsPerUid == 4)
        #expect(c.settings.requestPacing.burst == 100000 && c.settings.requestPacing.bytesPerSecond == 50000)
        #expect(c.history == 3 && c.resume == 7 && c.maxLineLength == 1024)
        #expect(c.calibration(path: "/dev/input/event9", name: "X") == .rotation(degrees: 90))
        // invertX, then the matrix's translation.
        #expect(c.calibration(path: "/dev/input/event9", name: "Y") == Calibration(matrix: [-1, 0, 1.5, 0, 1, 0]))
        #expect(c.calibration(path: "/dev/input/event9", name: "Z") == .identity)
    }

    @Test(arguments: [
        ("socket:\n  pth: /x\n", "t.yaml:2: unknown key 'socket.pth'"),
        ("histroy: 5\n", "t.yaml:1: unknown key 'histroy'"),
        ("history: many\n", "t.yaml:1: 'history' must be an integer"),
        ("socket:\n  mode: \"0999\"\n", "t.yaml:2: socket.mode must be an octal mode"),
        ("queue: {mergeAfter: 10, disconnectAfter: 5}\n", "t.yaml:1: queue.disconnectAfter must be at least"),
        ("calibration:\n  - {rotation: 90}\n", "t.yaml:2: a 'calibration' entry needs 'match'"),
        ("calibration:\n  - {match: \"name:a\", rotation: 45}\n", "t.yaml:2: 'calibration.rotation' must be"),
        ("calibration:\n  - {match: \"name:a\", matrix: [1, 2]}\n", "t.yaml:2: 'calibration.matrix' must have 6"),
        ("devices: [a]\n", "t.yaml:1: 'devices' must be a mapping"),
        ("socket: {path: [\n", "t.yaml:"),
        // Found by a black-box test: these served a daemon that greeted nobody or never replayed.
        ("devices:\n  speed: .inf\n", "t.yaml:2: 'devices.speed' must be a finite number"),
        ("devices:\n  speed: .nan\n", "t.yaml:2: 'devices.speed' must be a finite number"),
        ("devices:\n  speed: -1\n", "t.yaml:2: 'devices.speed' must be from 0"),
        ("devices:\n  speed: 1e308\n", "t.yaml:2: 'devices.speed' must be from 0"),
        ("gestures:\n  rotateAngle: .nan\n", "t.yaml:2: 'gestures.rotateAngle' must be a finite number"),
        // Found by a black-box test: times past Int64 microseconds trapped at start and on SIGHUP.
        ("gestures:\n  holdTimeout: 1e300\n", "t.yaml:2: 'gestures.holdTimeout' must be at most 86400000"),
        ("gestures:\n  settleTime: 9223372036854775807\n", "t.yaml:2: 'gestures.settleTime' must be at most"),
        ("gestures:\n  doubleTapMinTime: -1e300\n", "t.yaml:2: 'gestures.doubleTapMinTime' must be at most"),
        ("gestures:\n  devices:\n    - {match: \"name:*\", velocityWindow: 1e19}\n", "t.yaml:3: 'gestures.devices"),
        // Found by a black-box test: accepted, it let each client hold a line of any length.
        ("maxLineLength: 9223372036854775807\n", "t.yaml:1: 'maxLineLength' must be an integer from 256 to 16777216"),
        ("maxLineLength: 255\n", "t.yaml:1: 'maxLineLength' must be an integer from 256 to 16777216"),
        ("requests:\n  bytesPerSecond: 0\n", "t.yaml:2: 'requests.bytesPerSecond' must be an integer from 4096"),
        ("requests:\n  burstByte: 1\n", "t.yaml:2: unknown key 'requests.burstByte'"),
        // Selectors that could match no device were accepted, and the daemon served nothing.
        ("devices:\n  match: [event3]\n", "t.yaml:2: 'devices.match' must be name:GLOB, an absolute path"),
        ("devices:\n  match: [\"name:\"]\n", "t.yaml:2: 'devices.match' must be name:GLOB"),
        ("devices:\n  match: [\"Wacom*\"]\n", "t.yaml:2: 'devices.match' must be name:GLOB"),
        ("noTouchArbitration: [\"\"]\n", "t.yaml:1: 'noTouchArbitration[]' must be name:GLOB"),
        ("touchJumps:\n  - {match: \"replay:\", threshold: off}\n", "t.yaml:2: 'touchJumps.match' must be name:GLOB"),
        ("calibration:\n  - {match: \"id:056a:0059\", invertX: true}\n", "t.yaml:2: 'calibration.match' must be name:GLOB"),
        ("gestures:\n  devices:\n    - {match: \"id:56a\"}\n", "t.yaml:3: 'gestures.devices.match' must be name:GLOB, an absolute path (/dev/input/event3, /dev/input/by-id/...), id:VVVV:PPPP (hex) or replay:FILE, not \"id:56a\""),
        ("gestures:\n  devices:\n    - {match: \"id:56a:10000\"}\n", "t.yaml:3: 'gestures.devices.match' must be"),
    ])
    func invalidConfigurationNamesFileLineAndKey(_ text: String, _ prefix: String) {
        do {
            _ = try DaemonConfiguration.parse(text, file: "t.yaml")
            Issue.record("accepted: \(text)")
        } catch {
            #expect("\(error)".hasPrefix(prefix), "\(error)")
        }
    }

    /// Every form a selector takes is accepted where it is understood: `id:` only by
    /// `gestures.devices`, which compares vendor and product.
    @Test func everySelectorFormIsAccepted() throws {
        let c = try DaemonConfiguration.parse(
            """
            devices: {match: ["name:Wacom*", /dev/input/by-id/usb-x-event-if00, "replay:/tmp/a.evemu"]}
            calibration: [{match: "replay:/tmp/a.evemu#2", invertX: true}]
            gestures: {devices: [{match: "id:056A:59", holdTimeout: 500}]}
            """, file: "t.yaml")
        #expect(c.devices == ["name:Wacom*", "/dev/input/by-id/usb-x-event-if00", "replay:/tmp/a.evemu"])
        #expect(c.calibration(path: "replay:/tmp/a.evemu#2", name: "X") == .invertX)
        #expect(c.gestureOverrides.map(\.match) == ["id:056A:59"])
    }

    @Test func touchJumpsAreReadPerDevice() throws {
        let c = try DaemonConfiguration.parse(
            """
            touchJumps:
              - {match: "name:Pad", threshold: off}
              - {match: "name:Screen", threshold: 30}
              - {match: "name:*", threshold: default}
            """, file: "t.yaml")
        #expect(c.jumpSetting(path: "/dev/input/event1", name: "Pad") == .off)
        #expect(c.jumpSetting(path: "/dev/input/event1", name: "Screen") == .thresholdMM(30))
        #expect(c.jumpSetting(path: "/dev/input/event1", name: "Other") == .deviceDefault)
        #expect(DaemonConfiguration().jumpSetting(path: "/dev/input/event1", name: "Pad") == .deviceDefault)
        for (text, message) in [
            ("touchJumps:\n  - {threshold: 3}\n", "t.yaml:2: a 'touchJumps' entry needs 'match'"),
            ("touchJumps:\n  - {match: \"name:a\"}\n", "t.yaml:2: a 'touchJumps' entry needs 'threshold'"),
            ("touchJumps:\n  - {match: \"name:a\", threshold: -1}\n", "t.yaml:2: 'touchJumps.threshold' must be default, off or"),
        ] {
            #expect {
                _ = try DaemonConfiguration.parse(text, file: "t.yaml")
            } throws: { error in
                "\(error)".hasPrefix(message)
            }
        }
    }

    /// Both are read when a device is added, so a reload must say they wait for a restart
    /// (`noTouchArbitration` was silently ignored).
    @Test func deviceKeysReadAtAddAreRestartKeys() throws {
        let old = DaemonConfiguration()
        var new = old
        #expect(DaemonConfiguration.restartKeysChanged(from: old, to: new).isEmpty)
        new.noTouchArbitration = ["name:X"]
        new.touchJumps = try DaemonConfiguration.parse("touchJumps: [{match: 'name:Y', threshold: off}]\n", file: "t.yaml").touchJumps
        #expect(DaemonConfiguration.restartKeysChanged(from: old, to: new) == ["touchJumps", "noTouchArbitration"])
    }

    /// Values that only fail when the socket is bound are refused with their line: exit 78 and
    /// `file:line`, not a failure to run (exit 1) naming neither.
    @Test func socketValuesThatCannotWorkAreRefusedWithTheirLine() {
        let cases: [(String, String)] = [
            ("socket:\n  group: \"\"\n", "t.yaml:2: 'socket.group' must name a group"),
            ("socket:\n  group: 4294967295\n", "t.yaml:2: 'socket.group': no group '4294967295' on this system"),
            ("socket:\n  group: strokes-no-such-group\n", "t.yaml:2: 'socket.group': no group 'strokes-no-such-group'"),
            ("socket:\n  path: \"\"\n", "t.yaml:2: 'socket.path' must name a file"),
            ("socket:\n  path: /tmp/\n", "t.yaml:2: 'socket.path' must name a file"),
            ("socket:\n  path: /tmp/\(String(repeating: "x", count: 120))\n", "t.yaml:2: 'socket.path' is 125 bytes long; a Unix socket path holds at most 107"),
            ("http:\n  listen: /tmp/\(String(repeating: "x", count: 120))\n", "t.yaml:2: 'http.listen' is 125 bytes long"),
            // Not a socket value, refused the same way: 1e308 made `"nx":null`.
            ("calibration:\n  - {match: \"name:X\", matrix: [1e308, 0, 0, 0, 1, 0]}\n", "t.yaml:2: 'calibration.matrix' entries must be between -1000 and 1000"),
        ]
        for (text, expected) in cases {
            #expect {
                _ = try DaemonConfiguration.parse(text, file: "t.yaml")
            } throws: { error in
                "\(error)".hasPrefix(expected)
            }
        }
    }

    /// A configuration file is a regular file: a FIFO is refused at once (reading one without a
    /// writer, on reload, blocked the event loop for good).
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let path = NSTemporaryDirectory() + "strokes-config-fifo-\(UUID().uuidString.prefix(8))"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect {
            _ = try DaemonConfiguration.load(path: path)
        } throws: { error in
            "\(error)" == "\(path): not a regular file (a FIFO)"
        }
    }
}
