import Dispatch
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import StrokeRecording

#if canImport(Glibc)
import Glibc
#endif

/// Runs the daemon until SIGTERM or SIGINT: binds the socket, opens the sources, tells systemd
/// it is ready, and at the end cancels live strokes (`shutdown`), says goodbye to the clients,
/// closes them and removes the socket file. SIGHUP reloads the configuration file (`reload`).
public final class DaemonService: @unchecked Sendable {
    public let configuration: DaemonConfiguration
    let configPath: String?
    let logger: Logger

    /// The configuration file as last read, to tell which keys a reload changes.
    private let fileConfiguration: NIOLockedValueBox<DaemonConfiguration?>

    /// - Parameters:
    ///   - configuration: what to run with: the file's settings with the command line's overrides.
    ///   - file: the configuration file and what it held at start (before overrides), which SIGHUP
    ///     re-reads and compares with.
    public init(configuration: DaemonConfiguration, file: (path: String, contents: DaemonConfiguration)?, logger: Logger) {
        self.configuration = configuration
        self.configPath = file?.path
        self.logger = logger
        fileConfiguration = NIOLockedValueBox(file?.contents)
    }

    public func run() async throws {
        raiseDescriptorLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let daemon = Daemon(loop: loop, settings: configuration.settings, logger: logger)
        var options = SocketServer.Options(path: configuration.socketPath)
        options.mode = configuration.socketMode
        options.group = configuration.socketGroup
        options.groupRequired = configuration.socketGroupConfigured
        var opened: [any StrokeSource] = try await loop.submit { try self.openReplay(daemon) }.get()
        if configuration.replay == nil {
            // Live devices: opened (and seeded) before the socket exists, so that the first client's
            // snapshot already holds the contacts that were down at start; read on their own thread.
            let live = EvdevSource(daemon: daemon, configuration: configuration, logger: logger)
            live.start()
            opened.append(live)
        }
        let sources = opened

        let server: SocketServer
        do {
            server = try await SocketServer.start(daemon: daemon, options: options, logger: logger)
        } catch {
            try? await loop.submit { for s in sources { s.stop() } }.get()
            try? await group.shutdownGracefully()
            throw error
        }

        let stop = SignalLatch()
        let signals = installSignalHandlers(stop: stop, daemon: daemon)
        SystemdActivation.notify("READY=1\nSTATUS=serving \(daemon.hub.deviceInfos.count) device(s)")
        let watchdog = scheduleWatchdog(on: loop)
        logger.info("ready", metadata: ["devices": "\(daemon.hub.deviceInfos.count)"])

        await stop.wait()
        logger.info("shutting down")
        SystemdActivation.notify("STOPPING=1")
        watchdog?.cancel()
        for s in signals { s.cancel() }
        try await loop.flatSubmit {
            for s in sources { s.stop() }
            return daemon.shutdown()
        }.get()
        await server.stop()
        try await group.shutdownGracefully()
    }

    /// Raises the soft `RLIMIT_NOFILE` to the hard limit: each client is a descriptor, and the
    /// soft default (often 1024) is what a flood of connections runs into first.
    private func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        if limit.rlim_cur < limit.rlim_max {
            let old = limit.rlim_cur
            limit.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 { limit.rlim_cur = old }
        }
        logger.debug("descriptor limit", metadata: ["RLIMIT_NOFILE": "\(limit.rlim_cur)"])
    }

    /// The recording the configuration names (`--replay`), if any, started on the loop.
    private func openReplay(_ daemon: Daemon) throws -> [any StrokeSource] {
        var sources: [any StrokeSource] = []
        if let path = configuration.replay {
            let recording = try RecordingReader.read(path: path)
            let replay = ReplaySource(
                daemon: daemon, recording: recording, path: path, speed: configuration.replaySpeed,
                loop: configuration.replayLoop)
            try replay.start()
            sources.append(replay)
        }
        return sources
    }

    private func installSignalHandlers(stop: SignalLatch, daemon: Daemon) -> [DispatchSourceSignal] {
        var out: [DispatchSourceSignal] = []
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in
                if sig == SIGHUP {
                    self.reload(daemon)
                    return
                }
                stop.fire()
            }
            source.resume()
            out.append(source)
        }
        return out
    }

    /// SIGHUP: re-reads the configuration file. An invalid file changes nothing. Otherwise the
    /// settings a running daemon can change are applied (`Daemon.reload`); changed keys that need a
    /// restart (socket, devices, replay, history sizes) are named in the log.
    private func reload(_ daemon: Daemon) {
        guard let configPath else {
            logger.notice("SIGHUP: no configuration file to reload")
            return
        }
        let new: DaemonConfiguration
        do {
            new = try DaemonConfiguration.load(path: configPath)
        } catch {
            logger.error("SIGHUP: configuration not reloaded: \(error)")
            return
        }
        let old = fileConfiguration.withLockedValue { previous in
            defer { previous = new }
            return previous
        }
        let restart = old.map { DaemonConfiguration.restartKeysChanged(from: $0, to: new) } ?? []
        daemon.loop.execute { [logger] in
            daemon.reload(settings: new.settings) { new.calibration(path: $0.path, name: $0.description.name) }
            logger.notice("SIGHUP: configuration reloaded from \(configPath)")
            if !restart.isEmpty {
                logger.warning("SIGHUP: changes to \(restart.joined(separator: ", ")) take effect at the next restart")
            }
        }
    }

    private func scheduleWatchdog(on loop: EventLoop) -> RepeatedTask? {
        guard let interval = SystemdActivation.watchdogInterval() else { return nil }
        return loop.scheduleRepeatedTask(initialDelay: .zero, delay: .microseconds(interval)) { _ in
            SystemdActivation.notify("WATCHDOG=1")
        }
    }
}

/// Something that feeds the daemon (a replayed recording, live devices).
public protocol StrokeSource: AnyObject, Sendable {
    func stop()
}

extension ReplaySource: StrokeSource {}

/// A one-shot latch an async task waits on and a signal handler fires.
final class SignalLatch: @unchecked Sendable {
    private let lock = NIOLock()
    private var fired = false
    private var waiter: CheckedContinuation<Void, Never>?

    func fire() {
        lock.withLock {
            fired = true
            let w = waiter
            waiter = nil
            w?.resume()
        }
    }

    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            lock.withLock {
                if fired { c.resume() } else { waiter = c }
            }
        }
    }
}
