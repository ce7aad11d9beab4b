import Foundation
import StrokeClient
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `strokes gestures` against `strokes daemon` replaying recording 03 (four fingers dragging
/// down: one 4-finger swipe down, docs/gestures.md), looped.
@Suite(.serialized, .timeLimit(.minutes(2))) struct GesturesDaemonTests {
    final class Running {
        let directory: String
        let daemon = Process()
        var client: Process?

        init() throws {
            directory = NSTemporaryDirectory() + "strokes-gd-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            daemon.executableURL = CLI.binary
            daemon.arguments = [
                "daemon", "--socket", directory + "/s.sock", "--replay",
                CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu"), "--loop", "--log-level", "warning",
            ]
            daemon.standardOutput = FileHandle.nullDevice
            daemon.standardError = FileHandle.nullDevice
            try daemon.run()
            for _ in 0..<1000 {
                if !daemon.isRunning || (try? LineSocket(path: directory + "/s.sock")) != nil { break }
                usleep(10_000)
            }
        }

        /// Starts `strokes gestures` with `config`; its standard output is a pipe.
        func gestures(_ config: String, _ extra: [String] = []) throws -> FileHandle {
            try config.write(toFile: directory + "/g.yaml", atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["gestures", "--socket", directory + "/s.sock", "--config", directory + "/g.yaml"] + extra
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            client = process
            return out.fileHandleForReading
        }

        deinit {
            for p in [daemon, client].compactMap({ $0 }) where p.isRunning {
                kill(p.processIdentifier, SIGTERM)
                _ = waitForExit(p, seconds: 10)
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Lines from `handle` until `enough` says so or `seconds` pass.
    func lines(_ handle: FileHandle, seconds: Double, until enough: ([String]) -> Bool) -> [String] {
        var lines: [String] = []
        var pending = Data()
        let deadline = Date().addingTimeInterval(seconds)
        let fd = handle.fileDescriptor
        while !enough(lines), Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 200) > 0 else { continue }
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0a) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        return lines
    }

    static let rules = """
        every: 0ms
        rules:
          - name: begin
            kind: swipe
            phase: begin
            fingers: 4
            run: [notify, begin]
          - name: up
            kind: swipe
            direction: up
            run: [never]
          - name: four down
            kind: swipe
            fingers: 4
            direction: down
            run: [wtype, -M, logo, -k, Down]
          - name: tap
            kind: tap
            run: [never]
        """

    @Test func dryRunPrintsTheConfiguredCommandsOfARecordingInOrder() throws {
        let running = try Running()
        let out = try running.gestures(Self.rules, ["--dry-run"])
        // Joining mid-gesture may give an `end` first: count from the first `begin`.
        let all = lines(out, seconds: 60) { lines in
            lines.drop(while: { $0.json["rule"] as? String != "begin" }).count >= 6
        }
        let from = all.drop(while: { $0.json["rule"] as? String != "begin" }).prefix(6).map(\.json)
        #expect(from.count == 6, "\(all)")
        #expect(from.map { $0["rule"] as? String } == ["begin", "four down", "begin", "four down", "begin", "four down"])
        #expect(from.map { $0["argv"] as? [String] ?? [] }.filter { $0.first == "wtype" }.count == 3)
        for line in from {
            let env = line["env"] as? [String: String] ?? [:]
            #expect(env["STROKES_GESTURE_KIND"] == "swipe")
            #expect(env["STROKES_GESTURE_FINGERS"] == "4")
            #expect(env["STROKES_GESTURE_DIRECTION"] == "down")
            #expect(env["STROKES_GESTURE_DEVICE_NAME"]?.contains("Atmel") == true, "\(env)")
        }
    }

    @Test func aRealRunRunsTheShellRuleWithTheGesturesEnvironment() throws {
        let running = try Running()
        let file = running.directory + "/ran.txt"
        _ = try running.gestures(
            """
            rules:
              - kind: swipe
                fingers: 4
                shell: 'echo "$STROKES_GESTURE_KIND $STROKES_GESTURE_PHASE $STROKES_GESTURE_FINGERS $STROKES_GESTURE_DIRECTION" >> \(file)'
            """)
        var text = ""
        for _ in 0..<3000 where !text.contains("\n") {
            text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            usleep(20_000)
        }
        #expect(text.hasPrefix("swipe end 4 down\n"), "\(text)")
    }
}

extension GesturesDaemonTests {
    @Test func sighupReloadsTheConfigurationAndAnInvalidOneChangesNothing() throws {
        let running = try Running()
        func config(_ program: String) -> String {
            "every: 0ms\nrules:\n  - kind: swipe\n    fingers: 4\n    run: [\(program)]\n"
        }
        let out = try running.gestures(config("first"), ["--dry-run"])
        func program(_ line: String) -> String? { (line.json["argv"] as? [String])?.first }
        #expect(lines(out, seconds: 30) { $0.contains { program($0) == "first" } }.contains { program($0) == "first" })
        let pid = try #require(running.client?.processIdentifier)
        try config("second").write(toFile: running.directory + "/g.yaml", atomically: true, encoding: .utf8)
        kill(pid, SIGHUP)
        #expect(lines(out, seconds: 30) { $0.contains { program($0) == "second" } }.contains { program($0) == "second" })
        try "rules: [oops\n".write(toFile: running.directory + "/g.yaml", atomically: true, encoding: .utf8)
        kill(pid, SIGHUP)
        // Still running, still the second configuration: the next swipes say so.
        let after = lines(out, seconds: 30) { $0.count >= 2 }
        #expect(after.count >= 2)
        #expect(after.allSatisfy { program($0) == "second" }, "\(after)")
        #expect(running.client?.isRunning == true)
    }
}
