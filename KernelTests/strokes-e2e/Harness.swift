import Evdev
import Foundation
import StrokeClient
import StrokeProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A check that did not hold. The message says what was expected and what came.
struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw Failure(message()) }
}

/// Microseconds of `CLOCK_MONOTONIC`, the clock the daemon stamps events with.
func now() -> Int64 { MonotonicClock.now().microseconds }

func log(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A child process, spawned and reaped with plain POSIX calls: Foundation's `Process` watches
/// children through a run-loop socket that a bare initramfs cannot always make.
final class Spawned {
    let pid: pid_t
    let name: String
    private var status: Int32?
    /// The write end of the child's standard input, or -1.
    private(set) var stdinWriter: Int32 = -1

    /// Starts `executable`. Its standard input is a pipe we hold, or `stdinFile`; its output goes
    /// to the console.
    init(_ executable: String, _ arguments: [String], stdinFile: String? = nil) throws {
        name = (executable as NSString).lastPathComponent
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var toClose: [Int32] = []
        if let stdinFile {
            posix_spawn_file_actions_addopen(&actions, 0, stdinFile, O_RDONLY, 0)
        } else {
            var p: [Int32] = [-1, -1]
            guard pipe(&p) == 0 else { throw Failure("pipe: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, p[0], 0)
            posix_spawn_file_actions_addclose(&actions, p[1])
            toClose.append(p[0])
            stdinWriter = p[1]
        }
        if stdinWriter >= 0 { _ = fcntl(stdinWriter, F_SETFD, FD_CLOEXEC) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, nil, argv, environ)
        for fd in toClose { close(fd) }
        guard rc == 0 else { throw Failure("cannot run \(executable): \(String(cString: strerror(rc)))") }
        pid = child
    }

    deinit {
        if stdinWriter >= 0 { close(stdinWriter) }
    }

    /// Whether it still runs (reaps it when it has ended).
    var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        let rc = waitpid(pid, &raw, WNOHANG)
        if rc == pid {
            // WIFEXITED → exit status; a signal → 128 + signal, as shells say.
            let signalled = raw & 0x7f
            status = signalled == 0 ? (raw >> 8) & 0xff : 128 + signalled
            return false
        }
        return rc == 0
    }

    func signal(_ sig: Int32) { if isRunning { kill(pid, sig) } }

    /// Waits for the end; SIGKILL after `timeout` seconds. The exit status (128 + signal when killed).
    @discardableResult
    func wait(timeout: Double) -> Int32 {
        let deadline = now() + Int64(timeout * 1_000_000)
        while isRunning && now() < deadline { usleep(10_000) }
        if isRunning {
            kill(pid, SIGKILL)
            while isRunning { usleep(10_000) }
        }
        return status ?? -1
    }

    func sendLine() {
        var nl: UInt8 = 0x0a
        _ = Glibc.write(stdinWriter, &nl, 1)
    }
}

/// A `strokes daemon` child serving live devices (no `--replay`). Its log goes straight to the
/// console: nothing here must be left unread.
final class DaemonProcess {
    let socket: String
    private let child: Spawned

    init(strokes: String, socket: String) throws {
        self.socket = socket
        unlink(socket)
        child = try Spawned(strokes, ["daemon", "--socket", socket, "--log-level", "notice"], stdinFile: "/dev/null")
        let deadline = now() + 60_000_000
        while (try? LineSocket(path: socket)) == nil {
            guard child.isRunning else { throw Failure("the daemon exited at start (status \(child.wait(timeout: 0)))") }
            guard now() < deadline else { throw Failure("the daemon's socket did not appear within 60 s") }
            usleep(50_000)
        }
    }

    func signal(_ sig: Int32) { child.signal(sig) }

    /// Context switches of each of the daemon's threads (`/proc/PID/task/*/status`, voluntary
    /// plus involuntary), by thread id: a thread that wakes up switches at least once.
    func contextSwitches() -> [String: Int] {
        var out: [String: Int] = [:]
        let tasks = "/proc/\(child.pid)/task"
        for tid in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let status = try? String(contentsOfFile: tasks + "/" + tid + "/status", encoding: .utf8) else { continue }
            out[tid] = status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
                .compactMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }.reduce(0, +)
        }
        return out
    }

    /// SIGTERM, then waits; SIGKILL after `timeout` seconds. Returns the exit status.
    @discardableResult
    func stop(timeout: Double = 20) -> Int32 {
        child.signal(SIGTERM)
        return child.wait(timeout: timeout)
    }
}

/// One protocol message as a subscriber received it.
struct Received {
    var line: String
    var message: ServerMessage
    /// `CLOCK_MONOTONIC` µs when the line was read from the socket.
    var at: Int64
    var type: String { message.type }
    var isStroke: Bool { event != nil }

    /// The stroke event, when it is one.
    var event: StrokeMessage? {
        if case .stroke(let e) = message { return e }
        return nil
    }

    /// The hover event, when it is one.
    var hover: HoverMessage? {
        if case .hover(let h) = message { return h }
        return nil
    }

    /// The device of a stroke, hover or device event.
    var device: Int64? {
        switch message {
        case .stroke(let e): return Int64(e.device)
        case .hover(let h): return Int64(h.device)
        case .gesture(let g): return Int64(g.device)
        case .deviceAdded(let d): return Int64(d.device.device)
        case .deviceRemoved(let d): return Int64(d.device)
        case .hello, .reply, .error, .snapshot, .goodbye, .replayEnded, .unknown: return nil
        }
    }

    var stroke: Int64? { event.map { Int64($0.stroke) } }
    var trackingId: Int64? { (event?.trackingId ?? hover?.trackingId).map(Int64.init) }
    var x: Int64? { (event?.point ?? hover?.point).map { Int64($0.x) } }
    var time: Int64? { (event?.point ?? hover?.point)?.time }
}

/// A client subscribed to everything (or to the stream types `events` names), reading on its own
/// thread.
///
/// The reader thread only stamps and stores lines (and counts stroke events per device with a
/// cheap scan): decoding them is left to whoever asks for `all`, so that on the guest's one
/// emulated CPU the client's own work neither delays the daemon nor inflates the latency it
/// measures.
final class Subscriber: @unchecked Sendable {
    private let socket: LineSocket
    private let lock = NSLock()
    private var lines: [(line: String, at: Int64)] = []
    private var parsed: [Received] = []
    private var strokeCounts: [Int64: Int] = [:]
    private var closed = false
    private var thread: Thread?

    init(path: String, events: [Request.StreamType]? = nil) throws {
        socket = try LineSocket(path: path)
        try socket.send(try Request(id: 1, .subscribe(events: events)).line())
        let t = Thread { [self] in readLoop() }
        thread = t
        t.start()
        _ = try waitFor("the subscribe reply", timeout: 20) { $0.contains { $0.type == "snapshot" } }
    }

    private static let strokePrefixes = ["began", "moved", "ended", "cancelled"].map { #"{"type":""# + $0 + #"""# }

    /// The `device` of a stroke event line, without parsing it (the daemon writes stroke events
    /// with `type` first and one `"device":` key).
    private static func strokeDevice(_ line: String) -> Int64? {
        guard strokePrefixes.contains(where: { line.hasPrefix($0) }),
            let key = line.range(of: #""device":"#)
        else { return nil }
        return Int64(line[key.upperBound...].prefix { $0.isNumber })
    }

    private func readLoop() {
        // Blocking reads: nil (end of stream) or an error ends the loop.
        while let line = try? socket.readLine() {
            let at = now()
            let device = Subscriber.strokeDevice(line)
            lock.lock()
            lines.append((line, at))
            if let device { strokeCounts[device, default: 0] += 1 }
            lock.unlock()
        }
        lock.lock()
        closed = true
        lock.unlock()
    }

    /// Everything received so far, decoded (a line that does not decode: as an `unknown` message
    /// of type `undecodable`, which no check accepts).
    var all: [Received] {
        lock.lock()
        defer { lock.unlock() }
        while parsed.count < lines.count {
            let (line, at) = lines[parsed.count]
            let message = (try? ServerMessage(line: line)) ?? .unknown(type: "undecodable", raw: .string(line))
            parsed.append(Received(line: line, message: message, at: at))
        }
        return parsed
    }

    var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    /// Waits until `condition` holds over everything received so far; throws after `timeout` s.
    @discardableResult
    func waitFor(_ what: String, timeout: Double, _ condition: ([Received]) -> Bool) throws -> [Received] {
        let deadline = now() + Int64(timeout * 1_000_000)
        var checked = -1
        while true {
            // Re-check only when something arrived, and not often: the guest has one CPU, and
            // the daemon under test needs it.
            if count != checked {
                let got = all
                checked = got.count
                if condition(got) { return got }
            }
            if now() > deadline { throw Failure("timed out after \(timeout) s waiting for \(what)") }
            if isClosed { throw Failure("the daemon closed the connection while waiting for \(what)") }
            usleep(50_000)
        }
    }

    /// The first `deviceAdded` named `name` among the messages after the first `after`, once
    /// it comes: its device id and node.
    func deviceAdded(name: String, after: Int, timeout: Double = 30) throws -> (id: Int64, path: String) {
        func find(_ got: [Received]) -> DeviceObject? {
            for r in got.dropFirst(after) {
                if case .deviceAdded(let added) = r.message, added.device.name == name { return added.device }
            }
            return nil
        }
        let added = find(try waitFor("deviceAdded for \"\(name)\"", timeout: timeout) { find($0) != nil })!
        return (Int64(added.device), added.path)
    }

    func deviceRemoved(_ device: Int64, timeout: Double = 30) throws {
        try waitFor("deviceRemoved for device \(device)", timeout: timeout) {
            $0.contains { $0.type == "deviceRemoved" && $0.device == device }
        }
    }

    func strokeCount(device: Int64) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return strokeCounts[device, default: 0]
    }

    /// Waits until `condition` holds, checking it every 50 ms; throws after `timeout` s.
    func waitUntil(_ what: String, timeout: Double, _ condition: () -> Bool) throws {
        let deadline = now() + Int64(timeout * 1_000_000)
        while !condition() {
            if now() > deadline { throw Failure("timed out after \(timeout) s waiting for \(what)") }
            if isClosed { throw Failure("the daemon closed the connection while waiting for \(what)") }
            usleep(50_000)
        }
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return lines.count
    }

    func strokeEvents(device: Int64) -> [Received] {
        all.filter { $0.isStroke && $0.device == device }
    }

    func request(_ line: String) throws { try socket.send(line) }

    private var nextRequest = 1000

    /// Frames the daemon has processed so far, over all devices (`stats`): a barrier that says
    /// the daemon has read and decoded every frame written before, even one that publishes nothing.
    func framesProcessed(timeout: Double = 30) throws -> Int64 {
        nextRequest += 1
        let id = RequestID.int(Int64(nextRequest))
        try socket.send(try Request(id: id, .stats).line())
        func frames(_ r: Received) -> UInt64? {
            guard case .reply(let reply) = r.message, reply.id == id, case .stats(let stats) = reply.result else { return nil }
            return stats.daemon.frames
        }
        let got = try waitFor("the stats reply \(id)", timeout: timeout) { $0.contains { frames($0) != nil } }
        return Int64(got.lazy.compactMap(frames).last!)
    }

    /// Waits until the daemon has processed `count` frames more than `before` (`framesProcessed`).
    func waitForFrames(_ count: Int64, after before: Int64, timeout: Double = 30) throws {
        let deadline = now() + Int64(timeout * 1_000_000)
        while try framesProcessed() < before + count {
            if now() > deadline { throw Failure("timed out after \(timeout) s waiting for the daemon to process \(count) frames") }
            usleep(20_000)
        }
    }

    func close() { socket.shutdownWrite() }
}
