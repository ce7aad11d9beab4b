import Logging

/// SIGHUP: re-reads the configuration file. An invalid file changes nothing. Otherwise the
/// settings a running daemon can change are applied (`Daemon.reload`); changed keys that need a
/// restart (socket, devices, replay, history sizes) are named in the log.
struct ConfigurationReload: Sendable {
    let path: String?
    /// The file as last read, to tell which keys a reload changes.
    private var last: DaemonConfiguration?
    let daemon: Daemon
    let logger: Logger

    init(file: (path: String, contents: DaemonConfiguration)?, daemon: Daemon, logger: Logger) {
        path = file?.path
        last = file?.contents
        self.daemon = daemon
        self.logger = logger
    }

    mutating func run() {
        guard let path else {
            logger.notice("SIGHUP: no configuration file to reload")
            return
        }
        let new: DaemonConfiguration
        do {
            new = try DaemonConfiguration.load(path: path)
        } catch {
            logger.error("SIGHUP: configuration not reloaded: \(error)")
            return
        }
        let restart = last.map { DaemonConfiguration.restartKeysChanged(from: $0, to: new) } ?? []
        last = new
        let (daemon, logger) = (self.daemon, self.logger)
        daemon.loop.execute {
            daemon.reload(settings: new.settings) { new.calibration(path: $0.path, name: $0.description.name) }
            logger.notice("SIGHUP: configuration reloaded from \(path)")
            if !restart.isEmpty {
                logger.warning("SIGHUP: changes to \(restart.joined(separator: ", ")) take effect at the next restart")
            }
        }
    }
}
