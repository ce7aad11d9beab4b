// Measures the daemon end to end over real Unix sockets, in one process. Run in release:
//
//     swift run -c release strokes-daemon-bench [--quick] [--fanout] [--rounds N] [--clients 1|10|100]
//
// For 1, 10 and 100 subscribed clients (each on its own thread, reading as fast as it can), it
// plays the bundled 10-finger recording (01, 16 593 events, 4 231 stroke events):
// - flat out: stroke events delivered per second, summed over clients;
// - at the recorded pace, interleaved `--rounds N` times (default 1; medians printed) with the C
//   floor `c_fanout.c` (from `../shared/peers` or `$STROKES_PEERS`, built here with gcc; skipped
//   with a note when absent) on the schedule the round just played (each frame's recorded time and
//   its message count), for the same number of clients: strokes and C p50 / p99 and their ratios;
//   with 1 client, the daemon's CPU per frame (its event-loop thread's getrusage over the round)
//   beside the C peer's writer thread's (its scheduler time, from /proc) on the same schedule;
//   `--fanout` runs only this and the flat-out figures; `--clients N` only N clients;
// - at the recorded pace: latency from the frame entering the daemon (before decoding) to each
//   client having read the resulting line, p50 / p99 / max over every (event, client) pair;
//   and of it the part inside the daemon: from the loop starting on a frame to its lines sent;
// - with 10 clients plus one that never reads: the same latency, to show the stalled one does not
//   change the others';
// - idle: CPU time the process uses in 3 s with 10 clients connected and nothing to send;
// - abuse (`--abuse` runs only this): with the default limits, at 10× the recorded pace for 12
//   rounds (about 30 s), one good client alone, then beside 20 clients that never read and 20
//   that read one line per 100 ms: the process's RSS over time, slow clients disconnected, bytes
//   queued, and the good client's latency percentiles in both runs.

import Dispatch
import Evdev
import Foundation
import InputCore
import Logging
import NIOCore
import NIOPosix
import StrokeClient
import StrokeDaemon
import StrokeRecording

#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered, so progress shows while the benchmark runs.
func say(_ s: String) {
    let bytes = Array((s + "\n").utf8)
    _ = write(1, bytes, bytes.count)
}

func monotonicMicros() -> Int64 { MonotonicClock.now().microseconds }

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

final class Bench: @unchecked Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let daemon: Daemon
    let server: SocketServer
    let source: ReplaySource
    let path: String
    let steps: [Int64]  // recorded time of each step, µs
    /// Injection time per sequence number.
    var injected: [Int64] = []
    /// The last round's schedule for `c_fanout.c`: each frame's recorded time (µs) and how many
    /// stream messages it made.
    var schedule: [(time: Int64, count: Int)] = []
    /// The last round's `Played.inDaemon`, sorted.
    var lastInDaemon: [Int64] = []

    init(recordingPath: String, settings given: Daemon.Settings? = nil) async throws {
        path = NSTemporaryDirectory() + "strokes-bench-\(getpid()).sock"
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(
            mergeAfter: 1_000_000, disconnectAfter: 2_000_000, disconnectAfterBytes: 1 << 34, totalBytes: 1 << 34)  // measure delivery, not merging
        // 100 clients of one uid: past the per-uid default (32) the daemon refuses them.
        settings.maxClientsPerUid = settings.maxClients
        if let given { settings = given }
        daemon = Daemon(loop: group.next(), settings: settings, logger: logger)
        var options = SocketServer.Options(path: path)
        options.group = nil
        server = try await SocketServer.start(daemon: daemon, options: options, logger: logger)
        let recording = try RecordingReader.read(path: recordingPath)
        var assembler = FrameAssembler()
        steps = recording.devices[0].events.compactMap { assembler.feed($0)?.time.microseconds }
        let daemon = self.daemon
        source = try await daemon.loop.submit {
            let s = ReplaySource(daemon: daemon, recording: recording, path: recordingPath, speed: -1, loop: true)
            try s.start()
            return s
        }.get()
        injected = Array(repeating: 0, count: 1)
    }

    /// What each frame of a round did, recorded on the loop: its recorded time, the seq before and
    /// after it, and when the loop started on it. Touched only on the loop until the round ends.
    final class Played: @unchecked Sendable {
        var frames: [(time: Int64, before: Int, after: Int, at: Int64)] = []
        /// Per frame that made messages: µs from the loop starting on it to its lines being sent.
        var inDaemon: [Int64] = []
    }

    /// Plays one round; paced at the recorded rate or flat out. Returns the last seq.
    ///
    /// Each frame is handed to the loop with one `execute`, as the evdev reader thread hands it a
    /// read's batch, and not waited for: the loop thread's cost per frame is the daemon's alone,
    /// with no promise to complete and no waiting thread to wake.
    func play(paced: Bool, speed: Double = 1) throws -> Int {
        let start = monotonicMicros()
        let first = steps.first ?? 0
        let source = self.source
        let daemon = self.daemon
        let played = Played()
        played.frames.reserveCapacity(steps.count)
        played.inDaemon.reserveCapacity(steps.count)
        for t in steps {
            if paced {
                let due = start + Int64(Double(t - first) / speed)
                let wait = due - monotonicMicros()
                if wait > 0 { usleep(UInt32(wait)) }
            }
            daemon.loop.execute {
                let at = monotonicMicros()
                let before = Int(daemon.hub.seq)
                source.advance(1)
                let after = Int(daemon.hub.seq)
                if after != before { played.inDaemon.append(monotonicMicros() - at) }
                played.frames.append((t, before, after, at))
            }
        }
        let (frames, inDaemon) = try daemon.loop.submit { (played.frames, played.inDaemon) }.wait()
        lastInDaemon = inDaemon.sorted()
        schedule.removeAll(keepingCapacity: true)
        var lastSeq = 0
        for (t, before, after, at) in frames {
            if injected.count <= after { injected += Array(repeating: 0, count: after - injected.count + 1) }
            for s in (before + 1)..<(after + 1) { injected[s] = at }
            schedule.append((t, after - before))
            lastSeq = after
        }
        return lastSeq
    }
}

/// A client thread: subscribes, then records the receive time of every seq until `until`.
///
/// After the handshake (through `LineSocket`) it reads the way `c_fanout.c`'s reader threads do,
/// so that both sides of the comparison pay the same client: one blocking `read` into a 64 KiB
/// buffer per wake-up (no `poll` before it), lines split on `\n` in place, the `seq` found by a
/// byte scan (no `String` per line), the clock read once per line. `SO_RCVTIMEO` bounds a read
/// at 30 s instead of a `poll` per read.
final class Reader: @unchecked Sendable {
    let socket: LineSocket
    var received: [(Int, Int64)] = []
    var until = Int.max
    let done = DispatchSemaphore(value: 0)

    init(path: String, subscribe: Bool = true) throws {
        socket = try LineSocket(path: path)
        _ = try socket.readLine(timeout: 5)
        if subscribe {
            try socket.send(#"{"id":1,"request":"subscribe","events":["began","moved","ended","cancelled"]}"#)
            _ = try socket.readLine(timeout: 5)  // reply
            _ = try socket.readLine(timeout: 5)  // snapshot
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func start() {
        Thread { [self] in
            let fd = socket.fd
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var have = 0
            reading: while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + have, $0.count - have) }
                guard n > 0 else { break }
                have += n
                var start = 0
                let stop: Bool = buffer.withUnsafeBytes { raw in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    for i in start..<have where bytes[i] == UInt8(ascii: "\n") {
                        if let s = seq(in: bytes, from: start, to: i) {
                            received.append((s, monotonicMicros()))
                            if s >= until { return true }
                        }
                        start = i + 1
                    }
                    return false
                }
                if stop { break reading }
                if start > 0 {
                    buffer.withUnsafeMutableBytes { raw in
                        raw.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: have - start)
                    }
                    have -= start
                }
            }
            done.signal()
        }.start()
    }
}

/// `"seq":N` in `bytes[from..<to]`, without a JSON parser.
func seq(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    let key: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (34, 115, 101, 113, 34, 58)  // "seq":
    var i = from
    while i + 6 <= to {
        if bytes[i] == key.0, bytes[i + 1] == key.1, bytes[i + 2] == key.2, bytes[i + 3] == key.3, bytes[i + 4] == key.4,
            bytes[i + 5] == key.5
        {
            var j = i + 6
            var n = 0
            while j < to, bytes[j] >= 48, bytes[j] <= 57 {
                n = n * 10 + Int(bytes[j] - 48)
                j += 1
            }
            return n
        }
        i += 1
    }
    return nil
}

func percentile(_ sorted: [Int64], _ p: Double) -> Int64 {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}

/// CPU time (user + system) of the calling thread, in µs.
func threadCPUMicros() -> Int64 {
    var usage = rusage()
    getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
    return Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

func median(_ values: [Int64]) -> Int64 { percentile(values.sorted(), 0.5) }

/// The C floor for fan-out (`c_fanout.c` from `../shared/peers`, or `$STROKES_PEERS`), built once
/// with `gcc -O2 -pthread`, run on the schedule a strokes round just played.
struct CFanout {
    let binary: String

    /// Nil, with the reason said, when the source or gcc is missing.
    static func build() -> CFanout? {
        let dir = ProcessInfo.processInfo.environment["STROKES_PEERS"] ?? "../shared/peers"
        let source = dir + "/c_fanout.c"
        guard FileManager.default.fileExists(atPath: source) else {
            say("c_fanout: \(source) not found (set STROKES_PEERS): the C columns are skipped")
            return nil
        }
        let binary = NSTemporaryDirectory() + "strokes-bench-c_fanout-\(getpid())"
        guard run(["gcc", "-O2", "-pthread", source, "-o", binary]) != nil else {
            say("c_fanout: gcc -O2 -pthread \(source) failed: the C columns are skipped")
            return nil
        }
        return CFanout(binary: binary)
    }

    /// p50 and p99 in µs, from the peer's own output line, and the CPU its writer thread (the
    /// process's main thread: it sleeps until each frame is due, formats the frame's lines and
    /// writes them to every client, as the daemon's event-loop thread does) used, in µs.
    func run(schedule: [(time: Int64, count: Int)], clients: Int) -> (p50: Int64, p99: Int64, writerCPU: Int64?)? {
        let file = binary + ".schedule"
        let text = schedule.map { "\($0.time) \($0.count)\n" }.joined()
        guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8)) else { return nil }
        defer { unlink(file) }
        var writerCPU: Int64?
        guard let out = CFanout.run([binary, file, String(clients)], sampling: { writerCPU = $0 }) else { return nil }
        func value(after key: String) -> Int64? {
            guard let r = out.range(of: key) else { return nil }
            return Int64(out[r.upperBound...].prefix(while: { $0.isNumber }))
        }
        guard let p50 = value(after: "p50 "), let p99 = value(after: "p99 ") else { return nil }
        return (p50, p99, writerCPU)
    }

    /// Runs a command (found on PATH); its standard output, nil when it fails. `sampling`, when
    /// given, gets the main thread's time on CPU (µs, `/proc/PID/task/PID/schedstat`: the
    /// scheduler's nanosecond count, not tick-sampled) every 10 ms while the command runs; the last
    /// sample is at most 10 ms before it exits (after its last frame the peer only joins its
    /// readers and sorts their latencies).
    static func run(_ argv: [String], sampling: ((Int64) -> Void)? = nil) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0].hasPrefix("/") ? argv[0] : "/usr/bin/env")
        process.arguments = argv[0].hasPrefix("/") ? Array(argv.dropFirst()) : argv
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        if let sampling {
            let path = "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/schedstat"
            while process.isRunning {
                if let text = try? String(contentsOfFile: path, encoding: .utf8),
                    let ns = Int64(text.prefix(while: { $0.isNumber }))
                {
                    sampling(ns / 1000)
                }
                usleep(10_000)
            }
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A client that reads one line every 100 ms until told to stop or the daemon closes it.
final class SlowReader: @unchecked Sendable {
    let socket: LineSocket
    var stop = false

    init(path: String) throws {
        socket = try LineSocket(path: path)
        _ = try socket.readLine(timeout: 5)
        try socket.send(#"{"id":1,"request":"subscribe"}"#)
        Thread { [self] in
            while !stop, (try? socket.readLine(timeout: 30)) != nil { usleep(100_000) }
        }.start()
    }
}

func residentMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Double(line.split(separator: " ")[1]).map { $0 / 1024 } ?? 0
}

/// The abuse scenario: the good client's latency with and without 40 bad clients beside it.
func abuse(_ recording: String) async throws {
    for bad in [false, true] {
        let bench = try await Bench(recordingPath: recording, settings: Daemon.Settings())
        let good = try Reader(path: bench.path)
        let label = bad ? "1 good + 20 never-reading + 20 slow-reading" : "1 good client alone"
        // One flat-out round, read in full, to learn how many messages a round makes.
        let base = Int(try await bench.daemon.loop.submit { bench.daemon.hub.seq }.get())
        good.until = try bench.play(paced: false)
        let perRound = good.until - base
        good.start()
        good.done.wait()
        let never = bad ? try (0..<20).map { _ in try Reader(path: bench.path) } : []
        let slow = bad ? try (0..<20).map { _ in try SlowReader(path: bench.path) } : []
        _ = never

        let rounds = 12
        let from = good.until
        good.received.removeAll()
        good.until = from + rounds * perRound
        good.start()
        final class Sampler: @unchecked Sendable {
            var samples: [String] = []
            var stop = false
            let done = DispatchSemaphore(value: 0)
        }
        let sampler = Sampler()
        let t0 = monotonicMicros()
        Thread {
            while !sampler.stop {
                let (slowGone, queued) = (try? bench.daemon.loop.submit {
                    (bench.daemon.stats.slowClientsDisconnected, bench.daemon.stats.queuedBytes)
                }.wait()) ?? (0, 0)
                sampler.samples.append(
                    String(
                        format: "  %5.1f s  RSS %6.1f MB  slow clients disconnected %2d  queued %6d KiB",
                        Double(monotonicMicros() - t0) / 1e6, residentMB(), Int(slowGone), queued / 1024))
                usleep(3_000_000)
            }
            sampler.done.signal()
        }.start()
        for _ in 0..<rounds { _ = try bench.play(paced: true, speed: 10) }
        good.done.wait()
        sampler.stop = true
        sampler.done.wait()
        for s in slow { s.stop = true }
        var latencies: [Int64] = []
        for (s, t) in good.received where s > from && bench.injected[s] > 0 { latencies.append(t - bench.injected[s]) }
        latencies.sort()
        let merged = good.received.count < rounds * perRound
        say("abuse, \(label), 10× pace, \(rounds) rounds:")
        for line in sampler.samples { say(line) }
        say(
            "  good client: \(good.received.count) of \(rounds * perRound) messages\(merged ? " (some merged)" : ""), latency p50 \(percentile(latencies, 0.5)) µs, p99 \(percentile(latencies, 0.99)) µs, max \(latencies.last ?? 0) µs"
        )
        try await bench.stop()
        unlink(bench.path)
    }
}

let usage = """
    usage: strokes-daemon-bench [--quick] [--fanout] [--rounds N] [--clients 1|10|100]
           strokes-daemon-bench --abuse
    (from the repository's top directory: it plays Tests/ReplayTests/Fixtures/01-*)
    """

func run() async throws {
    let known: Set<String> = ["--quick", "--fanout", "--rounds", "--clients", "--abuse"]
    for (i, a) in CommandLine.arguments.enumerated().dropFirst() where !known.contains(a) {
        // The values of `--rounds` and `--clients`.
        if ["--rounds", "--clients"].contains(CommandLine.arguments[i - 1]), Int(a) != nil { continue }
        if a == "--help" || a == "-h" {
            print(usage)
            exit(0)
        }
        FileHandle.standardError.write(Data("strokes-daemon-bench: unknown argument \(a)\n\(usage)\n".utf8))
        exit(2)
    }
    let quick = CommandLine.arguments.contains("--quick")
    let recording = "Tests/ReplayTests/Fixtures/01-wacom-dth2242-touchscreen-10finger.evemu"
    guard access(recording, R_OK) == 0 else {
        FileHandle.standardError.write(Data("strokes-daemon-bench: \(recording) not found: run it from the repository's top directory\n".utf8))
        exit(2)
    }
    if CommandLine.arguments.contains("--abuse") {
        try await abuse(recording)
        return
    }
    let rounds = CommandLine.arguments.firstIndex(of: "--rounds").flatMap { i in
        CommandLine.arguments.dropFirst(i + 1).first.flatMap { Int($0) } } ?? 1
    let fanoutOnly = CommandLine.arguments.contains("--fanout")
    let peer = quick ? nil : CFanout.build()
    var fanout: [(clients: Int, p50: Int64, p99: Int64, c50: Int64, c99: Int64)] = []
    say("strokes-daemon-bench: recording 01 (16 593 events, 2 025 frames, 24.1 s), release build, \(ProcessInfo.processInfo.activeProcessorCount) cores")
    let only = CommandLine.arguments.firstIndex(of: "--clients").flatMap { i in
        CommandLine.arguments.dropFirst(i + 1).first.flatMap { Int($0) } }
    for (clients, stalled) in [(1, false), (10, false), (100, false), (10, true)]
    where !(fanoutOnly && stalled) && (only == nil || (only == clients && !stalled)) {
        let bench = try await Bench(recordingPath: recording)
        defer { unlink(bench.path) }
        let readers = try (0..<clients).map { _ in try Reader(path: bench.path) }
        let stalledReader = stalled ? try Reader(path: bench.path) : nil
        _ = stalledReader
        let label = "\(clients) client\(clients == 1 ? "" : "s")\(stalled ? " + 1 stalled" : "")"

        // Flat out (also tells how many stream messages one round makes).
        let baseSeq = Int(try await bench.daemon.loop.submit { bench.daemon.hub.seq }.get())
        let t0 = monotonicMicros()
        let total = try bench.play(paced: false)
        let perRound = total - baseSeq
        for r in readers {
            r.until = total
            r.start()
        }
        for r in readers { r.done.wait() }
        let elapsed = Double(monotonicMicros() - t0) / 1e6
        let delivered = readers.reduce(0) { $0 + $1.received.count }
        if !stalled {
            say("\(label): flat out \(Int(Double(delivered) / elapsed)) stroke events/s delivered (\(perRound) events × \(clients) clients in \(String(format: "%.2f", elapsed)) s)")
        }
        if quick {
            try await bench.stop()
            continue
        }

        // Recorded pace, interleaved with the C floor on the same schedule (`--rounds N`: medians).
        var p50s: [Int64] = []
        var p99s: [Int64] = []
        var maxes: [Int64] = []
        var cpuPerFrame: [Double] = []
        var c50s: [Int64] = []
        var c99s: [Int64] = []
        var cCPUPerFrame: [Double] = []
        var in50s: [Int64] = []
        var in99s: [Int64] = []
        var samples = 0
        var from = total
        for _ in 0..<rounds {
            for r in readers {
                r.received.removeAll()
                r.until = from + perRound
                r.start()
            }
            let cpu0 = try await bench.daemon.loop.submit { threadCPUMicros() }.get()
            let last = try bench.play(paced: true)
            for r in readers { r.done.wait() }
            let cpu1 = try await bench.daemon.loop.submit { threadCPUMicros() }.get()
            cpuPerFrame.append(Double(cpu1 - cpu0) / Double(bench.steps.count))
            var latencies: [Int64] = []
            for r in readers {
                for (s, t) in r.received where s > from && bench.injected[s] > 0 { latencies.append(t - bench.injected[s]) }
            }
            latencies.sort()
            p50s.append(percentile(latencies, 0.5))
            p99s.append(percentile(latencies, 0.99))
            maxes.append(latencies.last ?? 0)
            in50s.append(percentile(bench.lastInDaemon, 0.5))
            in99s.append(percentile(bench.lastInDaemon, 0.99))
            samples = latencies.count
            from = last
            if !stalled, let peer, let c = peer.run(schedule: bench.schedule, clients: clients) {
                c50s.append(c.p50)
                c99s.append(c.p99)
                if let cpu = c.writerCPU { cCPUPerFrame.append(Double(cpu) / Double(bench.schedule.count)) }
            }
        }
        let (p50, p99) = (median(p50s), median(p99s))
        let of = rounds > 1 ? " (medians of \(rounds) rounds)" : ""
        say("\(label): recorded pace, latency frame in → line read: p50 \(p50) µs, p99 \(p99) µs, max \(median(maxes)) µs (\(samples) samples)\(of)")
        say("\(label): of which in the daemon (loop starts on the frame → its lines sent): p50 \(median(in50s)) µs, p99 \(median(in99s)) µs\(of)")
        if !stalled, !c50s.isEmpty {
            let (c50, c99) = (median(c50s), median(c99s))
            say("\(label): c_fanout same schedule: p50 \(c50) µs, p99 \(c99) µs; strokes / C: p50 \(ratio(p50, c50)), p99 \(ratio(p99, c99))")
            fanout.append((clients, p50, p99, c50, c99))
        }
        if clients == 1 && !stalled {
            let cpu = cpuPerFrame.sorted()[cpuPerFrame.count / 2]
            say("1 client: daemon CPU at the recorded pace \(String(format: "%.1f", cpu)) µs per frame (event-loop thread, \(bench.steps.count) frames)\(of)")
            if !cCPUPerFrame.isEmpty {
                let c = cCPUPerFrame.sorted()[cCPUPerFrame.count / 2]
                say("1 client: c_fanout writer thread, same schedule: \(String(format: "%.1f", c)) µs per frame (\(bench.schedule.count) frames); strokes / C: \(String(format: "%.2f×", cpu / c))")
            }
        }

        if clients == 10 && !stalled && !fanoutOnly {
            let cpu0 = cpuSeconds()
            usleep(3_000_000)
            say("10 clients, idle 3 s: \(String(format: "%.4f", cpuSeconds() - cpu0)) s CPU")
        }
        try await bench.stop()
    }
    if !fanout.isEmpty {
        say("fan-out at the recorded pace, strokes vs c_fanout.c (same schedule, same run), µs:")
        say("  clients  strokes p50  C p50  ratio  strokes p99  C p99  ratio")
        for f in fanout {
            func pad(_ v: Any, _ w: Int) -> String { let t = "\(v)"; return String(repeating: " ", count: max(0, w - t.count)) + t }
            say("  \(pad(f.clients, 7))  \(pad(f.p50, 11))  \(pad(f.c50, 5))  \(pad(ratio(f.p50, f.c50), 5))  \(pad(f.p99, 11))  \(pad(f.c99, 5))  \(pad(ratio(f.p99, f.c99), 5))")
        }
    }
    if !quick && !fanoutOnly { try await abuse(recording) }
}

func ratio(_ a: Int64, _ b: Int64) -> String { b > 0 ? String(format: "%.2f×", Double(a) / Double(b)) : "-" }

extension Bench {
    func stop() async throws {
        let daemon = self.daemon
        try await daemon.loop.flatSubmit { daemon.shutdown() }.get()
        await server.stop()
        try await group.shutdownGracefully()
    }
}

try await run()
