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

    /// The live source's channels (here the hotplug watch: no device can be made on this
    /// machine) are open on the daemon's loop while the service runs, and closed when it returns.
    @Test(.timeLimit(.minutes(1))) func evdevSourceClosesItsChannelsWhenItStops() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-input-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = Daemon(loop: group.next(), settings: .init(), logger: Logger(label: "test"))
        let source = EvdevSource(daemon: daemon, configuration: DaemonConfiguration(), logger: Logger(label: "test"), directory: directory)
        #expect(try await daemon.loop.submit { source.watching }.get() == false)
        try await source.openDevices()
        #expect(try await daemon.loop.submit { source.watching }.get())
        let services = ServiceGroup(services: [source], logger: Logger(label: "test"))
        async let ran: Void = services.run()
        await services.triggerGracefulShutdown()
        try await ran
        #expect(try await daemon.loop.submit { source.watching || source.openCount > 0 }.get() == false)
        // Nothing is opened once stopped, even a node that appears.
        try await daemon.loop.submit { source.open(directory + "/event0") }.get()
        #expect(try await daemon.loop.submit { source.openCount }.get() == 0)
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
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        #expect(n > 0)
        #expect(buffer.withUnsafeBytes { EvdevSource.inotifyNames(in: UnsafeRawBufferPointer(rebasing: $0[..<max(n, 0)])) } == names)
        #expect(buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } == -1)  // EAGAIN: nothing more
    }
}
