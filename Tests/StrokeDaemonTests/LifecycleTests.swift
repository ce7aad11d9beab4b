import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

@testable import StrokeDaemon

/// The daemon's parts as services (docs/architecture.md, "Lifecycle").
@Suite struct LifecycleTests {
    /// One graceful shutdown of the group [server, source] ends the source first, then cancels the
    /// live strokes, says goodbye and closes the client, and removes the socket file, before
    /// `run()` returns.
    @Test(.timeLimit(.minutes(1))) func groupShutdownCancelsStrokesSaysGoodbyeAndRemovesTheSocket() async throws {
        let d = try await TestDaemon()
        let c = try d.connect()
        _ = try c.subscribe(["events": ["cancelled"]])
        try await d.advance(20)
        let group = ServiceGroup(services: [d.server, d.source], logger: Logger(label: "test"))
        async let ran: Void = group.run()
        await group.triggerGracefulShutdown()
        try await ran
        #expect(!FileManager.default.fileExists(atPath: d.path))
        #expect(try await d.onLoop { $0.stopping && $0.stats.clients == 0 })
        var cancelled = 0
        var goodbye = false
        while let line = try c.socket.readLine(timeout: 5) {
            let m = line.json
            if m["type"] as? String == "cancelled" {
                #expect(m["reason"] as? String == "shutdown")
                #expect(!goodbye)
                cancelled += 1
            } else {
                #expect(m["type"] as? String == "goodbye")
                #expect(m["reason"] as? String == "shutdown")
                goodbye = true
            }
        }
        #expect(cancelled == 4)
        #expect(goodbye)
        try await d.group.shutdownGracefully()
        try? FileManager.default.removeItem(atPath: d.directory)
    }

    /// The live source's reader thread runs while the service does, and is woken and joined by
    /// graceful shutdown: when `run()` returns, no thread holds the reader.
    @Test(.timeLimit(.minutes(1))) func evdevSourceWakesAndJoinsItsReaderThread() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-input-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = Daemon(loop: group.next(), settings: .init(), logger: Logger(label: "test"))
        let source = try EvdevSource(daemon: daemon, configuration: DaemonConfiguration(), logger: Logger(label: "test"), directory: directory)
        source.openDevices()
        #expect(source.readerIsIdle)
        let services = ServiceGroup(services: [source], logger: Logger(label: "test"))
        async let ran: Void = services.run()
        var started = false
        for _ in 0..<2000 where !started {
            started = !source.readerIsIdle
            if !started { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(started, "the reader thread never ran")
        await services.triggerGracefulShutdown()
        try await ran
        #expect(source.readerIsIdle)
        try await group.shutdownGracefully()
    }

    /// inotify records are read through `inotify_event`: names of files made in the watched
    /// directory come out whole, whatever their padding.
    @Test func inotifyRecordsNameTheNewNodes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-inotify-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(inotify_add_watch(fd, directory, UInt32(IN_CREATE)) >= 0)
        let names = ["event7", "event12", "a-much-longer-name-than-one-padding-unit"]
        for name in names {
            let file = open(directory + "/" + name, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
            #expect(file >= 0)
            close(file)
        }
        let read = try EvdevSource.Reader.drainInotify(fd)
        #expect(read == names)
        #expect(try EvdevSource.Reader.drainInotify(fd) == [])
    }
}
