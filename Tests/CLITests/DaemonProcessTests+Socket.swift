import Foundation
import StrokeClient
import StrokeProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One daemon per socket (issue 11), with real processes.
extension DaemonProcessTests {
    func ping(_ path: String) throws -> Bool {
        let c = try LineSocket(path: path)
        _ = try c.readLine(timeout: 5)
        try c.send(#"{"id":1,"request":"ping"}"#)
        return try c.readLine(timeout: 5)?.contains(#""request":"ping""#) == true
    }

    /// A second daemon on the path of a running one exits 69 with a clear error and leaves the
    /// socket alone: the first goes on serving, and removes the file when it stops.
    @Test func aSecondDaemonOnALiveSocketExitsAndTheFirstKeepsServing() throws {
        let first = try RunningDaemon(["--loop"])
        let second = try CLI.run([
            "daemon", "--socket", first.socketPath, "--replay", CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu"),
        ])
        #expect(second.status == 69)
        #expect(second.stderr.contains("\(first.socketPath) is in use"), "\(second.stderr)")
        #expect(try ping(first.socketPath), "\(first.log)")
        #expect(first.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: first.socketPath))
    }

    /// Whoever holds `PATH.lock` owns the path, even while its socket does not listen yet (as a
    /// daemon starting does): a daemon started then exits 69 and leaves the socket file alone,
    /// instead of judging it stale and removing it (two daemons started together both ran, one
    /// with its socket file removed by the other).
    @Test func aDaemonStartingOnALockedPathExitsAndLeavesItsSocketAlone() throws {
        let directory = NSTemporaryDirectory() + "strokes-lock-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/strokes.sock"
        // A socket bound and not listening: to a connect, the same as a stale one.
        let bound = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(bound) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { _ = path.utf8CString.withUnsafeBytes($0.copyMemory) }
        let boundStatus = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(bound, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(boundStatus == 0)
        let lock = open(path + ".lock", O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
        defer { close(lock) }
        try #require(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        var before = stat()
        try #require(lstat(path, &before) == 0)
        // Waited for with a limit: a daemon that took the path would serve on and never exit.
        let second = Process()
        second.executableURL = CLI.binary
        second.arguments = ["daemon", "--socket", path, "--replay", CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu")]
        _ = FileManager.default.createFile(atPath: directory + "/second.log", contents: nil)
        second.standardError = FileHandle(forWritingAtPath: directory + "/second.log")
        second.standardOutput = FileHandle.nullDevice
        try second.run()
        let exited = waitForExit(second, seconds: 20)
        let log = (try? String(contentsOfFile: directory + "/second.log", encoding: .utf8)) ?? ""
        #expect(exited && second.terminationStatus == 69, "\(log)")
        #expect(log.contains("\(path) is in use"), "\(log)")
        var after = stat()
        #expect(lstat(path, &after) == 0 && after.st_ino == before.st_ino, "the socket file was replaced")
        // Released, the path is the next daemon's: the lock is what refused it.
        flock(lock, LOCK_UN)
        let third = try RunningDaemon(socket: path)
        #expect(try ping(path), "\(third.log)")
        #expect(third.stop() == 0)
    }

    /// A socket file left by a daemon that was killed is replaced by the next one.
    @Test func aStaleSocketFileIsReplaced() throws {
        let first = try RunningDaemon(["--loop"])
        kill(first.process.processIdentifier, SIGKILL)
        _ = waitForExit(first.process, seconds: 10)
        #expect(FileManager.default.fileExists(atPath: first.socketPath))
        let next = Process()
        next.executableURL = CLI.binary
        next.arguments = [
            "daemon", "--socket", first.socketPath, "--replay", CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu"),
            "--loop",
        ]
        next.standardError = FileHandle.nullDevice
        try next.run()
        defer { if next.isRunning { kill(next.processIdentifier, SIGKILL) } }
        var served = false
        for _ in 0..<1500 where next.isRunning && !served {
            served = (try? ping(first.socketPath)) == true
            if !served { usleep(20_000) }
        }
        #expect(served)
        kill(next.processIdentifier, SIGTERM)
        #expect(waitForExit(next, seconds: 20) && next.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: first.socketPath))
    }
}

extension DaemonProcessTests {
    /// Out of descriptors (hard limit 64), the daemon backs off accepting instead of spinning,
    /// says so once, keeps serving who is connected, and accepts again once descriptors free up.
    @Test func atTheDescriptorLimitAcceptBacksOffAndServesTheConnected() throws {
        let directory = NSTemporaryDirectory() + "strokes-emfile-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/strokes.sock"
        let log = directory + "/daemon.log"
        // Connection limits above the descriptor limit, so that descriptors run out first.
        try "maxClients: 1000\nmaxClientsPerUid: 1000\n".write(toFile: directory + "/c.yaml", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", #"ulimit -n 64 && exec "$0" daemon --config "$3" --socket "$1" --replay "$2" --loop --speed 4"#, CLI.binary.path, path,
            CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu"), directory + "/c.yaml",
        ]
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var first: LineSocket?
        for _ in 0..<500 where first == nil && process.isRunning {
            first = try? LineSocket(path: path)
            if first == nil { usleep(20_000) }
        }
        let served = try #require(first)
        _ = try served.readLine(timeout: 5)

        // Far more connections than descriptors: the backlog holds what the daemon cannot accept.
        var flood: [LineSocket] = []
        for _ in 0..<150 { if let s = try? LineSocket(path: path) { flood.append(s) } }
        func logText() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        for _ in 0..<250 where !logText().contains("cannot accept connections") { usleep(20_000) }
        #expect(logText().contains("cannot accept connections"), "\(logText())")
        try served.send(#"{"id":1,"request":"ping"}"#)
        #expect(try served.readLine(timeout: 5)?.contains(#""request":"ping""#) == true)
        usleep(500_000)
        #expect(logText().components(separatedBy: "cannot accept connections").count - 1 == 1)

        flood.removeAll()  // closes them: descriptors free up
        var again: String?
        for _ in 0..<100 where again == nil {
            again = try? LineSocket(path: path).readLine(timeout: 2)
            if again == nil { usleep(50_000) }
        }
        #expect(again?.contains(#""type":"hello""#) == true)
        // The episode is over (and its count logged) at a connection a second after the last failure.
        for _ in 0..<40 where !logText().contains("failedAccepts=") {
            usleep(200_000)
            _ = try? LineSocket(path: path).readLine(timeout: 2)
        }
        kill(process.processIdentifier, SIGTERM)
        #expect(waitForExit(process, seconds: 20))
        // Accept was retried every 100 ms for the second or few the episode lasted, not in a
        // busy loop (which retries millions of times a second).
        let failed = logText().components(separatedBy: "failedAccepts=").dropFirst().first?.prefix { $0.isNumber }
        let attempts = try #require(failed.flatMap { Int($0) }, "\(logText())")
        #expect(attempts >= 1 && attempts < 1000, "\(attempts) failed accepts")
    }
}

extension DaemonProcessTests {
    /// `strokes render --socket` pages through a history that takes many replies: the picture
    /// is the recording's whole picture all the same.
    @Test func renderPagesThroughHistory() throws {
        let config = NSTemporaryDirectory() + "strokes-pages-\(UUID().uuidString.prefix(8)).yaml"
        try "historyPageBytes: 4096\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { unlink(config) }
        let daemon = try RunningDaemon(["--config", config, "--no-loop", "--speed", "0"])
        let recording = RenderCLITests.paths(
            try CLI.run(["render", CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu"), "-o", "-"]).stdout)
        var drawn: [String: (state: String, d: String)] = [:]
        for _ in 0..<300 {
            drawn = RenderCLITests.paths(try CLI.run(["render", "--socket", daemon.socketPath, "-o", "-"]).stdout)
            if drawn.count == 66 && drawn.values.allSatisfy({ $0.state == "ended" }) { break }
            usleep(100_000)
        }
        #expect(drawn.count == 66)
        #expect(drawn.allSatisfy { recording[$0.key]?.d == $0.value.d })

        // It took pages: the first reply has a cursor.
        let c = try daemon.connect()
        _ = try c.readLine(timeout: 5)
        try c.send(#"{"id":1,"request":"history"}"#)
        let first = try #require(try c.readLine(timeout: 5))
        guard case .reply(let reply) = try ServerMessage(line: first), case .history(let page) = reply.result else {
            Issue.record("not a history reply: \(first)")
            return
        }
        #expect(page.cursor != nil)
        #expect(first.utf8.count < 4096 + 4096)
        #expect(daemon.stop() == 0)
    }
}

extension DaemonProcessTests {
    /// Issue 14, "Idle": with nothing touching and a client subscribed, no thread of the daemon
    /// wakes (each thread's context switches, from /proc, unchanged over 3 s). libdispatch's pool
    /// monitor used to wake it once a second once Swift concurrency had run a task.
    @Test func anIdleDaemonNeverWakes() throws {
        let daemon = try RunningDaemon(
            ["--no-loop", "--speed", "0"], recording: "03-atmel-maxtouch-touchscreen-4finger-drag.evemu")
        let client = try daemon.connect()
        _ = try client.readLine(timeout: 10)  // hello
        try client.send(#"{"id":1,"request":"subscribe"}"#)
        // The reply, the snapshot and the recording's strokes, until 2 s of quiet.
        while true {
            do {
                guard try client.readLine(timeout: 2) != nil else { break }
            } catch let error as LineSocket.Error where error.timedOut {
                break
            }
        }
        // Per thread: one that exits meanwhile (a worker of the fast replay's feeder winding
        // down) did not wake; one that appears did.
        func switches() -> [String: Int] {
            let tasks = "/proc/\(daemon.process.processIdentifier)/task"
            var counts: [String: Int] = [:]
            for tid in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
                let status = (try? String(contentsOfFile: "\(tasks)/\(tid)/status", encoding: .utf8)) ?? ""
                counts[tid] = status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
                    .compactMap { Int($0.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") }.reduce(0, +)
            }
            return counts
        }
        let before = switches()
        usleep(3_000_000)
        let after = switches()
        #expect(!before.isEmpty, "no threads read")
        let woke = after.filter { tid, count in count != before[tid] }
        #expect(woke.isEmpty, "threads that woke in 3 s idle (tid: before → after): \(woke.map { "\($0.key): \(before[$0.key] ?? 0) → \($0.value)" })")
        #expect(daemon.stop() == 0)
    }
}
