import Foundation
import StrokeClient
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `Scripts/run.sh`, the README's first command: this machine's touch devices when
/// `strokes devices` lists any, the bundled recording otherwise, saying which.
@Suite(.serialized) struct RunScriptTests {
    /// Runs `Scripts/run.sh` with `STROKES_BIN` set, to completion.
    func run(bin: String, socket: String) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [CLI.repo.appendingPathComponent("Scripts/run.sh").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["STROKES_BIN": bin, "STROKES_SOCKET": socket]) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// A stand-in `strokes`: `devices --paths` prints `devices`; anything else prints its arguments.
    func fakeStrokes(listing devices: [String]) throws -> String {
        let path = NSTemporaryDirectory() + "fake-strokes-\(UUID().uuidString.prefix(8))"
        let list = devices.map { "echo \($0)" }.joined(separator: "; ")
        let script = """
            #!/bin/sh
            if [ "$1 $2" = "devices --paths" ]; then \(list.isEmpty ? ":" : list); exit 0; fi
            echo "ARGS $*"
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    @Test func servesTheMachinesTouchDevicesWhenStrokesDevicesListsAny() throws {
        let fake = try fakeStrokes(listing: ["/dev/input/event7", "/dev/input/event9"])
        defer { try? FileManager.default.removeItem(atPath: fake) }
        let r = try run(bin: fake, socket: "/tmp/s.sock")
        #expect(r.status == 0)
        #expect(r.stdout == "ARGS daemon --socket /tmp/s.sock\n")
        #expect(r.stderr.contains("serving this machine's touch devices (/dev/input/event7 /dev/input/event9) on /tmp/s.sock"), "\(r.stderr)")
    }

    @Test func servesTheBundledRecordingWhenThereAreNone() throws {
        let fake = try fakeStrokes(listing: [])
        defer { try? FileManager.default.removeItem(atPath: fake) }
        let r = try run(bin: fake, socket: "/tmp/s.sock")
        let recording = "Tests/ReplayTests/Fixtures/01-wacom-dth2242-touchscreen-10finger.evemu"
        #expect(r.stdout == "ARGS daemon --socket /tmp/s.sock --replay \(recording) --loop\n")
        #expect(r.stderr.contains("no touch devices readable here"), "\(r.stderr)")
        #expect(r.stderr.contains("serving the bundled recording \(recording)"), "\(r.stderr)")
    }

    /// The real binary on this machine, which has no touch devices: the bundled recording is
    /// served and a client gets its strokes.
    @Test func theBundledRecordingPathServesStrokes() throws {
        let listed = try CLI.run(["devices", "--paths"])
        try #require(listed.stdout.isEmpty, "this machine has touch devices: \(listed.stdout)")
        let directory = NSTemporaryDirectory() + "strokes-run-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/strokes.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [CLI.repo.appendingPathComponent("Scripts/run.sh").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["STROKES_BIN": CLI.binary.path, "STROKES_SOCKET": socket]) { $1 }
        _ = FileManager.default.createFile(atPath: directory + "/run.log", contents: nil)
        process.standardError = FileHandle(forWritingAtPath: directory + "/run.log")
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var client: LineSocket?
        for _ in 0..<1000 where client == nil && process.isRunning {
            client = try? LineSocket(path: socket)
            if client == nil { usleep(10_000) }
        }
        let log = { (try? String(contentsOfFile: directory + "/run.log", encoding: .utf8)) ?? "" }
        let c = try #require(client, "no socket: \(log())")
        #expect(try c.readLine(timeout: 10)?.json["type"] as? String == "hello")
        try c.send(#"{"id":1,"request":"subscribe"}"#)
        // A finger may be down already (then it is in the snapshot): wait for its motion.
        var lines: [String] = []
        let stroke = { (line: String) in ["began", "moved"].contains(line.json["type"] as? String) }
        while lines.count < 50, !lines.contains(where: stroke) {
            guard let line = try c.readLine(timeout: 10) else { break }
            lines.append(line)
        }
        #expect(lines.contains(where: stroke), "no stroke from the bundled recording: \(lines) \(log())")
        #expect(log().contains("serving the bundled recording"), "\(log())")
        kill(process.processIdentifier, SIGTERM)
        #expect(waitForExit(process, seconds: 20))
        #expect(process.terminationStatus == 0, "\(log())")
    }
}
