import Foundation
import StrokeClient
import StrokeProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `strokes daemon` as a real process: signals, systemd notification, the example clients.
@Suite(.serialized) struct DaemonProcessTests {
    final class RunningDaemon {
        let process = Process()
        let directory: String
        let socketPath: String

        init(
            _ extra: [String] = [], environment: [String: String] = [:],
            recording: String = "01-wacom-dth2242-touchscreen-10finger.evemu", socket: String? = nil
        ) throws {
            directory = NSTemporaryDirectory() + "strokes-cli-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            socketPath = socket ?? directory + "/strokes.sock"
            process.executableURL = CLI.binary
            process.arguments = [
                "daemon", "--socket", socketPath, "--replay", recording.hasPrefix("/") ? recording : CLI.fixture(recording),
                "--speed", "4",
            ] + extra
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            // A file, not a pipe: nobody reads a pipe here, and a full one would block the daemon's logging.
            _ = FileManager.default.createFile(atPath: directory + "/daemon.log", contents: nil)
            process.standardError = FileHandle(forWritingAtPath: directory + "/daemon.log")
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // Connectable, not merely present: the file appears at bind(), before listen().
            // (A loop that stops: a `where` clause would go on connecting a thousand times, past
            // the daemon's per-uid connection limit.)
            for _ in 0..<1000 {
                if !process.isRunning || (try? LineSocket(path: socketPath)) != nil { break }
                usleep(10_000)
            }
        }

        func connect() throws -> LineSocket { try LineSocket(path: socketPath) }

        /// What the daemon logged so far, for failure messages.
        var log: String { (try? String(contentsOfFile: directory + "/daemon.log", encoding: .utf8)) ?? "(no log)" }

        func stop(_ signal: Int32 = SIGTERM) -> Int32 {
            kill(process.processIdentifier, signal)
            guard waitForExit(process, seconds: 20) else { return -1 }
            return process.terminationStatus
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalCancelsLiveStrokesSaysGoodbyeAndRemovesTheSocket(_ signal: Int32) throws {
        let daemon = try RunningDaemon(["--loop"])
        let client = try daemon.connect()
        try client.send(#"{"id":1,"request":"subscribe"}"#)
        // Wait until fingers are down.
        var open = Set<UInt64>()
        while open.count < 2, let line = try client.readLine(timeout: 10) {
            guard case .stroke(let e) = try ServerMessage(line: line) else { continue }
            if e.kind == .began { open.insert(e.stroke) }
            if e.kind == .ended { open.remove(e.stroke) }
        }
        #expect(daemon.stop(signal) == 0)
        var goodbye: Goodbye?
        while let line = try client.readLine(timeout: 10) {
            switch try ServerMessage(line: line) {
            case .stroke(let e):
                switch e.kind {
                case .began: open.insert(e.stroke)
                case .moved: break
                case .ended: open.remove(e.stroke)
                case .cancelled:
                    #expect(e.reason == .shutdown)
                    open.remove(e.stroke)
                }
            case .goodbye(let g): goodbye = g
            default: break
            }
        }
        #expect(goodbye?.reason == .shutdown)
        #expect(open.isEmpty, "strokes left without an end: \(open)")
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test func notifiesSystemdReadyWatchdogAndStopping() throws {
        let notify = NSTemporaryDirectory() + "strokes-notify-\(UUID().uuidString.prefix(8))"
        let fd = boundUnixSocket(notify, type: Int32(SOCK_DGRAM.rawValue))
        defer {
            close(fd)
            unlink(notify)
        }
        #expect(fd >= 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func receive() -> String {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
        }
        let daemon = try RunningDaemon(environment: ["NOTIFY_SOCKET": notify, "WATCHDOG_USEC": "200000"])
        var seen: [String] = []
        for _ in 0..<5 { seen.append(receive()) }
        #expect(seen.contains { $0.hasPrefix("READY=1") })
        #expect(seen.contains("WATCHDOG=1"))
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath))  // bound before READY
        #expect(daemon.stop() == 0)
        var rest: [String] = []
        while true {
            let m = receive()
            if m.isEmpty { break }
            rest.append(m)
            if m == "STOPPING=1" { break }
        }
        #expect(rest.contains("STOPPING=1"))
    }

    @Test func watchPrintsEventsAndExitsWhenTheDaemonStops() throws {
        let daemon = try RunningDaemon(["--loop"])
        let watch = Process()
        watch.executableURL = CLI.binary
        watch.arguments = ["watch", "--socket", daemon.socketPath, "--no-moves"]
        let out = Pipe()
        watch.standardOutput = out
        try watch.run()
        usleep(1_500_000)
        #expect(daemon.stop() == 0)
        #expect(waitForExit(watch, seconds: 20))
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(watch.terminationStatus == 0)
        #expect(text.hasPrefix("connected: strokes "))
        #expect(text.contains("\nbegan     stroke "))
        #expect(!text.contains("moved"))
        #expect(text.hasSuffix("goodbye: shutdown\n"))
    }

    /// Runs `examples/strokes_client.py --json` against `daemon` until `strokes` strokes ended:
    /// whether it finished in time, its exit status, its output and its closing summary.
    func runExampleClient(_ daemon: RunningDaemon, strokes: Int) throws
        -> (finished: Bool, status: Int32, text: String, summary: [String: Any])
    {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", CLI.repo.appendingPathComponent("examples/strokes_client.py").path, "--socket", daemon.socketPath,
            "--strokes", String(strokes), "--json",
        ]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let finished = waitForExit(python, seconds: 60)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let summary = text.split(separator: "\n").last.map(String.init)?.json ?? [:]
        return (finished, finished ? python.terminationStatus : -1, text, summary)
    }

    @Test func pythonExampleClientNeedsOnlyTheStandardLibrary() throws {
        let daemon = try RunningDaemon(["--speed", "0", "--loop"])
        let run = try runExampleClient(daemon, strokes: 200)
        #expect(run.finished, "the example client did not finish within 60 s")
        #expect(run.status == 0, "daemon running: \(daemon.process.isRunning); its log:\n\(daemon.log)")
        // Recording 01, looped as fast as possible: every stroke ends, and every sequence number
        // is either received or counted in a merged move.
        #expect(run.summary["ended"] as? Int == 200)
        #expect(run.summary["cancelled"] as? Int == 0)
        #expect(run.summary["missing"] as? Int == 0)
        _ = daemon.stop()
    }

    /// A pen recording's hover takes no sequence numbers and is not sent by default, so the
    /// example client as it was written before pens sees a complete stream.
    @Test func pythonExampleClientKeepsWorkingWithAPenDevice() throws {
        let daemon = try RunningDaemon(["--speed", "0", "--loop"], recording: "18-wacom-dth2242-pen-buttons.evemu")
        let run = try runExampleClient(daemon, strokes: 21)
        #expect(run.finished, "the example client did not finish within 60 s")
        #expect(run.status == 0, "its log:\n\(daemon.log)")
        #expect(run.summary["ended"] as? Int == 21)
        #expect(run.summary["missing"] as? Int == 0)
        #expect(!run.text.contains(#""type": "hover""#) && !run.text.contains(#""type":"hover""#))
        _ = daemon.stop()
    }

    /// Counted in a daemon process of its own, so no other test's descriptors interfere.
    @Test func thousandConnectDisconnectCyclesLeakNoDescriptors() throws {
        let daemon = try RunningDaemon(["--loop"])
        let fdDirectory = "/proc/\(daemon.process.processIdentifier)/fd"
        func openDescriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: fdDirectory).count) ?? -1 }
        func settle() {
            // The daemon notices a hang-up on its next loop tick.
            for _ in 0..<100 {
                usleep(20_000)
                if openDescriptors() == baseline { return }
            }
        }
        var baseline = openDescriptors()
        _ = try daemon.connect().readLine(timeout: 5)  // warm up
        usleep(200_000)
        baseline = openDescriptors()
        for i in 0..<1000 {
            let c = try daemon.connect()
            _ = try c.readLine(timeout: 5)  // hello: the daemon has accepted
            switch i % 4 {
            case 0: try c.send(#"{"id":1,"request":"subscribe"}"#)
            case 1: try c.sendRaw(Array("garbage\n".utf8))
            case 2: c.shutdownWrite()
            default: break
            }
        }
        settle()
        #expect(openDescriptors() == baseline)
        #expect(daemon.stop() == 0)
    }

    @Test func sighupAppliesCalibrationAndLimitsAndNamesWhatNeedsARestart() throws {
        let file = NSTemporaryDirectory() + "strokes-reload-\(UUID().uuidString.prefix(8)).yaml"
        try "maxLineLength: 65536\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let daemon = try RunningDaemon(["--config", file])
        let log = daemon.directory + "/daemon.log"
        func waitForLog(_ text: String, count: Int = 1) -> Bool {
            for _ in 0..<1000 {
                let content = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if content.components(separatedBy: text).count - 1 >= count { return true }
                usleep(10_000)
            }
            return false
        }
        func reply(_ client: LineSocket, to request: String) throws -> String? {
            try client.send(request)
            while let line = try client.readLine(timeout: 10) {
                if line.contains("\"type\":\"reply\"") || line.contains("\"type\":\"error\"") { return line }
            }
            return nil
        }

        let greetedBefore = try daemon.connect()
        #expect(try reply(greetedBefore, to: #"{"id":0,"request":"ping"}"#)?.contains("\"request\":\"ping\"") == true)
        try """
            maxLineLength: 300
            history: 10
            calibration:
              - match: "name:Wacom*"
                invertX: true
            """.write(toFile: file, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(waitForLog("configuration reloaded"))
        #expect(waitForLog("changes to history take effect at the next restart"))

        let client = try daemon.connect()
        let devices = try reply(client, to: #"{"id":1,"request":"devices"}"#) ?? ""
        #expect(devices.contains(#""calibration":[-1,0,1,0,1,0]"#))
        let long = #"{"id":2,"request":"ping","padding":""# + String(repeating: "x", count: 400) + #""}"#
        #expect(try reply(client, to: long)?.contains("lineTooLong") == true)
        // A client keeps the limit its greeting announced (it could not know of the new one).
        #expect(try reply(greetedBefore, to: long.replacingOccurrences(of: #""id":2"#, with: #""id":4"#))?.contains("\"id\":4") == true)

        // An invalid file changes nothing, and the daemon keeps serving.
        try "maxLineLength: [oops\n".write(toFile: file, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(waitForLog("configuration not reloaded"))
        let again = try daemon.connect()
        #expect(try reply(again, to: #"{"id":3,"request":"ping"}"#)?.contains("\"request\":\"ping\"") == true)
        #expect(daemon.stop() == 0)
    }

    @Test func invalidConfigurationStopsTheDaemonWithFileLineAndKey() throws {
        let file = NSTemporaryDirectory() + "strokes-bad-\(UUID().uuidString.prefix(8)).yaml"
        try "socket:\n  path: /tmp/x.sock\n  moed: \"0600\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let r = try CLI.run(["daemon", "--config", file])
        #expect(r.status == 78)
        #expect(r.stderr.contains("\(file):3: unknown key 'socket.moed'"))
    }

    @Test func systemdUnitsPassSystemdAnalyzeVerify() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            Issue.record("systemd-analyze is missing: Scripts/setup.sh installs systemd")
            return
        }
        // The units name the installed binary; verify them against the one just built.
        let dir = NSTemporaryDirectory() + "strokes-units-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for unit in ["strokes.service", "strokes.socket"] {
            let text = try String(contentsOf: CLI.repo.appendingPathComponent("systemd/" + unit), encoding: .utf8)
            #expect(unit == "strokes.socket" || text.contains("ExecStart=/usr/local/bin/strokes daemon"))
            try text.replacingOccurrences(of: "/usr/local/bin/strokes", with: CLI.binary.path)
                .write(toFile: dir + "/" + unit, atomically: true, encoding: .utf8)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        p.arguments = ["verify", dir + "/strokes.socket", dir + "/strokes.service"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = err
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(text)")
        #expect(text.isEmpty, "\(text)")
    }
}

/// Waits for `process` at most `seconds`, then kills it; whether it ended by itself.
func waitForExit(_ process: Process, seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    guard process.isRunning else { return true }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    return false
}

extension String {
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(utf8)) as? [String: Any]) ?? [:] }
}
