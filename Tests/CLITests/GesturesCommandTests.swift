import Foundation
import StrokeClient
import StrokeProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `strokes gestures` as a built binary, against a fake daemon that sends gestures.
@Suite(.serialized, .timeLimit(.minutes(2))) struct GesturesCommandTests {
    /// A Unix socket speaking just enough of the protocol: `hello`, the replies to `subscribe`
    /// (and its snapshot) and `devices`, then `lines` and `goodbye`, for one connection.
    final class GestureServer: @unchecked Sendable {
        let path: String
        let fd: Int32
        private let lock = NSLock()
        private var _requests: [String] = []
        var requests: [String] { lock.withLock { _requests } }

        init(path: String, features: [String] = ["subscribe", "devices", "gestures"], devices: [DeviceObject], lines: [String]) throws {
            self.path = path
            fd = boundUnixSocket(path)
            guard fd >= 0, listen(fd, 4) == 0 else { throw LineSocket.Error(message: "cannot listen on \(path)") }
            let hello = #"{"type":"hello","protocol":1,"daemon":"fake 0","instance":"i1","seq":0,"features":"#
                + "[" + features.map { "\"\($0)\"" }.joined(separator: ",") + #"],"maxLineLength":65536}"#
            let deviceList = String(decoding: try JSONEncoder().encode(devices), as: UTF8.self)
            let listener = fd
            Thread { [self] in
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                defer { close(connection) }
                func send(_ line: String) {
                    let bytes = Array((line + "\n").utf8)
                    _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
                send(hello)
                var pending: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = recv(connection, &buffer, buffer.count, 0)
                    if n <= 0 { return }
                    pending += buffer[0..<n]
                    while let newline = pending.firstIndex(of: 0x0a) {
                        let line = String(decoding: pending[..<newline], as: UTF8.self)
                        pending.removeSubrange(...newline)
                        lock.withLock { _requests.append(line) }
                        let request = line.json
                        let id = request["id"].map { "\($0)" } ?? "null"
                        switch request["request"] as? String {
                        case "subscribe":
                            send(#"{"type":"reply","id":\#(id),"request":"subscribe","seq":0}"#)
                            send(#"{"type":"snapshot","seq":0,"strokes":[]}"#)
                        case "devices":
                            send(#"{"type":"reply","id":\#(id),"request":"devices","devices":\#(deviceList)}"#)
                            for line in lines { send(line) }
                            send(#"{"type":"goodbye","reason":"shutdown"}"#)
                            usleep(200_000)
                            return
                        default:
                            send(#"{"type":"error","id":\#(id),"error":"unknownRequest","message":"fake"}"#)
                        }
                    }
                }
            }.start()
        }

        func stop() {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
            unlink(path)
        }
    }

    static func device(_ id: UInt32, _ name: String) -> DeviceObject {
        let axis = DeviceObject.Axis(min: 0, max: 4095, resolution: 10)
        return DeviceObject(
            device: id, name: name, path: "/dev/input/event\(id)", kind: .touchscreen, slots: 10, bustype: 3, vendor: 1,
            product: 2, x: axis, y: axis, axes: [], semiMT: false)
    }

    static func line(_ g: GestureMessage) throws -> String {
        String(decoding: try JSONEncoder().encode(ServerMessage.gesture(g)), as: UTF8.self)
    }

    static func gesture(
        _ id: UInt64, _ kind: GestureMessage.Kind, _ phase: GestureMessage.Phase, fingers: Int, device: UInt32 = 1,
        direction: GestureMessage.Direction? = nil, scale: Double? = nil
    ) -> GestureMessage {
        GestureMessage(
            gesture: id, kind: kind, phase: phase, device: device, time: Int64(id) * 1000, fingers: fingers,
            strokes: Array(1...UInt64(fingers)), x: 10, y: 20, nx: 0.5, ny: 0.25, duration: 5000, direction: direction,
            scale: scale)
    }

    /// Gestures in an order the rules below pick from: matched, not matched, matched.
    static let stream: [GestureMessage] = [
        gesture(1, .swipe, .begin, fingers: 3, direction: .left),
        gesture(1, .swipe, .end, fingers: 3, direction: .left),
        gesture(2, .tap, .end, fingers: 1),
        gesture(3, .swipe, .end, fingers: 2, direction: .up),
        gesture(4, .hold, .begin, fingers: 1),
        gesture(4, .hold, .end, fingers: 1),
        gesture(5, .pinch, .end, fingers: 2, device: 2, scale: 0.5),
        gesture(6, .pinch, .end, fingers: 2, device: 1, scale: 0.5),
    ]

    func directory() throws -> String {
        let directory = NSTemporaryDirectory() + "strokes-gestures-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func dryRunPrintsEachMatchedGesturesCommandInOrder() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
            rules:
              - name: left
                kind: swipe
                fingers: 3
                direction: left
                run: [wtype, -k, Left]
              - name: tap
                kind: tap
                shell: echo "$STROKES_GESTURE_KIND" > /dev/null
              - name: press
                kind: hold
                run: [ydotool, click, "0xC1"]
              - name: pen pinch
                kind: pinch
                device: "*Pen"
                run: [zoom]
            """.write(toFile: dir + "/g.yaml", atomically: true, encoding: .utf8)
        let server = try GestureServer(
            path: dir + "/s.sock", devices: [Self.device(1, "Finger"), Self.device(2, "Wacom Pen")],
            lines: try Self.stream.map(Self.line))
        defer { server.stop() }
        let r = try CLI.run(["gestures", "--socket", server.path, "--config", dir + "/g.yaml", "--dry-run", "--once"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map { String($0).json }
        #expect(lines.map { $0["rule"] as? String } == ["left", "tap", "press", "pen pinch"])
        #expect(lines.map { $0["argv"] as? [String] } == [
            ["wtype", "-k", "Left"], ["/bin/sh", "-c", #"echo "$STROKES_GESTURE_KIND" > /dev/null"#], ["ydotool", "click", "0xC1"],
            ["zoom"],
        ])
        let env = lines.map { $0["env"] as? [String: String] ?? [:] }
        #expect(env.map { $0["STROKES_GESTURE_ID"] } == ["1", "2", "4", "5"])
        #expect(env[0]["STROKES_GESTURE_DIRECTION"] == "left")
        #expect(env[0]["STROKES_GESTURE_FINGERS"] == "3")
        #expect(env[0]["STROKES_GESTURE_DEVICE_NAME"] == "Finger")
        #expect(env[3]["STROKES_GESTURE_SCALE"] == "0.5")
        #expect(env[3]["STROKES_GESTURE_DEVICE_NAME"] == "Wacom Pen")
        let subscribe = server.requests.first.map(\.json) ?? [:]
        #expect(subscribe["request"] as? String == "subscribe")
        #expect(subscribe["events"] as? [String] == ["gesture", "deviceAdded", "deviceRemoved"])
    }

    /// `--once` exits only after the commands it started have ended. Started with posix_spawn and
    /// waited for with waitpid, output to /dev/null: what is timed is the process alone (pipes, or
    /// Foundation's `Process`, would wait for the command too, which inherits them).
    @Test func onceWaitsForTheCommandsItStarted() throws {
        let dir = try directory()
        let out = dir + "/out.txt"
        try """
            rules:
              - kind: hold
                shell: 'sleep 0.5; echo done >> \(out)'
            """.write(toFile: dir + "/g.yaml", atomically: true, encoding: .utf8)
        let server = try GestureServer(
            path: dir + "/s.sock", devices: [Self.device(1, "Finger")], lines: try Self.stream.map(Self.line))
        defer { server.stop() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0) }
        let config = dir + "/g.yaml"
        let arguments: [String] = [CLI.binary.path, "gestures", "--socket", server.path, "--config", config, "--once"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ) == 0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status == 0)
        #expect((try? String(contentsOfFile: out, encoding: .utf8)) == "done\n")
    }

    @Test func aRealRunPassesArgvAndEnvironmentAndOutlivesAProgramThatCannotStart() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out.txt"
        try """
            rules:
              - kind: swipe
                fingers: 3
                run: [/usr/bin/env]
              - kind: tap
                run: [strokes-no-such-program-\(UUID().uuidString.prefix(6))]
              - kind: hold
                shell: 'echo "$STROKES_GESTURE_KIND $STROKES_GESTURE_FINGERS $STROKES_GESTURE_RULE" >> \(out)'
            """.write(toFile: dir + "/g.yaml", atomically: true, encoding: .utf8)
        let server = try GestureServer(
            path: dir + "/s.sock", devices: [Self.device(1, "Finger")], lines: try Self.stream.map(Self.line))
        defer { server.stop() }
        let r = try CLI.run(["gestures", "--socket", server.path, "--config", dir + "/g.yaml", "--once"])
        #expect(r.status == 0, "\(r.stderr)")
        // /usr/bin/env's output: the inherited stdout, the gesture's variables in it.
        #expect(r.stdout.contains("STROKES_GESTURE_KIND=swipe\n"))
        #expect(r.stdout.contains("STROKES_GESTURE_DIRECTION=left\n"))
        #expect(r.stdout.contains("STROKES_GESTURE_RULE=rule 1\n"))
        #expect(r.stdout.contains("STROKES_GESTURE_DEVICE_NAME=Finger\n"))
        #expect(r.stdout.contains("PATH="), "the client's own environment is inherited")
        #expect(r.stderr.contains("strokes: gestures: rule 2: cannot run [\"strokes-no-such-program-"), "\(r.stderr)")
        // The hold after the failure still ran (the shell may finish after strokes exits).
        var text = ""
        for _ in 0..<200 where !text.hasSuffix("\n") {
            text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            usleep(20_000)
        }
        #expect(text == "hold 1 rule 3\n")
    }

    @Test func anInvalidConfigurationExits78WithFileAndLine() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "rules:\n  - kind: swipe\n    fingres: 3\n    run: [x]\n".write(toFile: dir + "/g.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["gestures", "--config", dir + "/g.yaml", "--socket", dir + "/none.sock"])
        #expect(r.status == 78)
        #expect(r.stderr.contains("\(dir)/g.yaml:3: unknown key 'fingres' in a rule"), "\(r.stderr)")
        let missing = try CLI.run(["gestures", "--config", dir + "/nothing.yaml"])
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("\(dir)/nothing.yaml: cannot open:"), "\(missing.stderr)")
    }

    @Test func checkListsTheRulesOfTheDefaultFile() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/strokes", withIntermediateDirectories: true)
        try "rules:\n  - name: t\n    kind: tap\n    run: [a, b c]\n".write(toFile: dir + "/strokes/gestures.yaml", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["gestures", "--check"]
        process.environment = ["XDG_CONFIG_HOME": dir, "HOME": "/nonexistent"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text == "\(dir)/strokes/gestures.yaml: 1 rule(s)\n  t: tap end → [\"a\",\"b c\"]\n")
    }

    /// What the daemon says is logged as one line with its control characters escaped: a hostile
    /// or broken daemon cannot retitle the terminal or forge a log line.
    @Test func aDaemonsErrorIsLoggedWithItsControlCharactersEscaped() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "rules: []\n".write(toFile: dir + "/g.yaml", atomically: true, encoding: .utf8)
        let error = #"{"type":"error","error":"x\u001b[2J","message":"\u001b]0;owned\u0007\nstrokes: forged"}"#
        let server = try GestureServer(path: dir + "/s.sock", devices: [], lines: [error])
        defer { server.stop() }
        let r = try CLI.run(["gestures", "--socket", server.path, "--config", dir + "/g.yaml", "--once"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.unicodeScalars.contains("\u{1b}"), "\(r.stderr)")
        #expect(!r.stderr.contains("\nstrokes: forged"), "\(r.stderr)")
        #expect(r.stderr.contains(#"strokes: gestures: the daemon: x\u{1b}[2J: \u{1b}]0;owned\u{7}\u{a}strokes: forged"#), "\(r.stderr)")
    }

    @Test func aDaemonWithoutGesturesIsRefusedClearly() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "rules: []\n".write(toFile: dir + "/g.yaml", atomically: true, encoding: .utf8)
        let server = try GestureServer(path: dir + "/s.sock", features: ["subscribe"], devices: [], lines: [])
        defer { server.stop() }
        let r = try CLI.run(["gestures", "--socket", server.path, "--config", dir + "/g.yaml", "--once"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("does not recognise gestures (no feature 'gestures')"), "\(r.stderr)")
    }

    @Test func theUserUnitPassesSystemdAnalyzeVerify() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            Issue.record("systemd-analyze is missing: Scripts/setup.sh installs systemd")
            return
        }
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = try String(contentsOf: CLI.repo.appendingPathComponent("systemd/strokes-gestures.service"), encoding: .utf8)
        #expect(text.contains("ExecStart=/usr/local/bin/strokes gestures\n"))
        #expect(text.contains("WantedBy=graphical-session.target\n"))
        #expect(text.contains("PartOf=graphical-session.target\n"))
        try text.replacingOccurrences(of: "/usr/local/bin/strokes", with: CLI.binary.path)
            .write(toFile: dir + "/strokes-gestures.service", atomically: true, encoding: .utf8)
        // A user manager's checks; it needs a runtime directory, which a test run may lack.
        try FileManager.default.createDirectory(atPath: dir + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        p.arguments = ["verify", "--user", dir + "/strokes-gestures.service"]
        p.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": dir + "/run"]) { $1 }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = err
        try p.run()
        let output = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(output)")
        #expect(output.isEmpty, "\(output)")
    }
}
