import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import StrokeRecording
import SystemSupport
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

/// Runs the daemon until SIGTERM or SIGINT: opens the sources, binds the socket, and runs every
/// long-running part as a `Service` in one `ServiceGroup`, which ends them in a fixed order
/// (docs/architecture.md, "Lifecycle"):
///
/// 1. the sources stop (the live devices' channels are closed; the replay's timer is
///    cancelled): no frame arrives after this;
/// 2. every live stroke is cancelled (`shutdown`) and delivered; each client gets what it had
///    queued and `goodbye`, and is closed (`SocketServer`);
/// 3. the listener is closed and the socket file removed (`SocketServer`);
/// 4. systemd is told `STOPPING=1` (`SystemdNotifier`).
///
/// SIGHUP reloads the configuration file (`DaemonSignals`).
public struct DaemonService: Sendable {
    public let configuration: DaemonConfiguration
    let file: (path: String, contents: DaemonConfiguration)?
    let logger: Logger
    let listeners: [Listener]

    /// Starts one more listener for `daemon` (bound and accepting when it returns) and gives the
    /// `Service` that serves it until graceful shutdown, then stops accepting. Its clients are the
    /// daemon's: `Daemon.shutdown` says goodbye to them with the socket's.
    public typealias Listener = @Sendable (Daemon) async throws -> any Service

    /// - Parameters:
    ///   - configuration: what to run with: the file's settings with the command line's overrides.
    ///   - file: the configuration file and what it held at start (before overrides), which SIGHUP
    ///     re-reads and compares with.
    ///   - listeners: more listeners beside the socket (the HTTP side, `StrokeHTTP`), started
    ///     after it in this order.
    public init(
        configuration: DaemonConfiguration, file: (path: String, contents: DaemonConfiguration)?, logger: Logger,
        listeners: [Listener] = []
    ) {
        self.configuration = configuration
        self.file = file
        self.logger = logger
        self.listeners = listeners
    }

    public func run() async throws {
        // Each client is a descriptor, and the soft default (often 1024) is what a flood of
        // connections runs into first.
        let descriptors = DescriptorLimit.raiseSoft()
        logger.debug("descriptor limit", metadata: ["RLIMIT_NOFILE": "\(descriptors.map(String.init) ?? "unknown")"])
        // Trapped before the socket exists: whoever can connect may signal the daemon at once,
        // and must find the signal handled rather than its default action (termination). This is
        // why the group is not given `gracefulShutdownSignals`: it would trap them only once it
        // runs, after the socket is bound.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            try await serve(on: group.next(), signals: signals)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
    }

    private func serve(on loop: EventLoop, signals: UnixSignalsSequence) async throws {
        let daemon = Daemon(loop: loop, settings: configuration.settings, logger: logger)
        var options = SocketServer.Options(path: configuration.socketPath)
        options.mode = configuration.socketMode
        options.group = configuration.socketGroup
        options.groupRequired = configuration.socketGroupConfigured
        let replay = try await loop.submit { try self.openReplay(daemon) }.get()
        var sources: [any Service] = replay.map { [$0] } ?? []
        var live: EvdevSource?
        if configuration.replay == nil {
            // Live devices: opened (and seeded) before the socket exists, so that the first client's
            // snapshot already holds the contacts that were down at start.
            let source = EvdevSource(daemon: daemon, configuration: configuration, logger: logger)
            live = source
            try await source.openDevices()
            sources.append(source)
        }
        let server: SocketServer
        do {
            server = try await SocketServer.start(daemon: daemon, options: options, logger: logger)
        } catch {
            // Nothing runs yet but the replay's first timer or the live devices' channels.
            if let replay { try? await loop.submit { replay.stop() }.get() }
            try? await live?.stop()
            throw error
        }
        var more: [any Service] = []
        do {
            for listener in listeners { more.append(try await listener(daemon)) }
        } catch {
            if let replay { try? await loop.submit { replay.stop() }.get() }
            try? await live?.stop()
            await server.stop()
            throw error
        }
        let devices = try await loop.submit { daemon.hub.deviceInfos.count }.get()
        let reload = ConfigurationReload(file: file, daemon: daemon, logger: logger)
        // Started together (everything above is ready); graceful shutdown ends them one at a time
        // from the last to the first, each after the one behind it has returned.
        // The other listeners stop accepting before `server` ends every client (theirs too).
        let services: [any Service] =
            [SystemdNotifier(devices: devices, logger: logger), server] + more
            + [DaemonSignals(signals: signals, reload: reload, logger: logger)] + sources
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map {
                    // Any part that ends, or fails, ends the daemon in the same order.
                    .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                logger: logger))
        try await group.run()
    }

    /// The recording the configuration names (`--replay`), if any, started on the loop.
    private func openReplay(_ daemon: Daemon) throws -> ReplaySource? {
        guard let path = configuration.replay else { return nil }
        // Read on the event loop, and again for each round: a FIFO there blocked the loop's thread
        // in open(2), the daemon neither serving nor stopping (an adversary's finding).
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
            throw RecordingError(file: path, line: nil, message: "not a regular file: the daemon replays (and loops) a recording file")
        }
        let recording = try RecordingReader.read(path: path)
        let replay = ReplaySource(
            daemon: daemon, recording: recording, path: path, speed: configuration.replaySpeed,
            loop: configuration.replayLoop)
        let configuration = self.configuration
        replay.gestures = { configuration.gestureConfiguration(path: $0, description: $1) }
        // Found by a black-box test: `calibration:` matched a replayed device only after a SIGHUP.
        replay.calibration = { configuration.calibration(path: $0, name: $1.name) }
        replay.jumps = { configuration.jumpSetting(path: $0, name: $1.name) }
        try replay.start()
        return replay
    }
}
