import Logging
import ServiceLifecycle
import UnixSignals

/// The daemon's signals as a `Service`: SIGHUP reloads the configuration file; SIGTERM or SIGINT
/// ends the service, and with it (the group's `successTerminationBehavior`) the daemon, gracefully.
struct DaemonSignals: Service, CustomStringConvertible {
    /// Trapping SIGTERM, SIGINT and SIGHUP since before the socket was bound.
    let signals: UnixSignalsSequence
    var reload: ConfigurationReload
    let logger: Logger
    var description: String { "DaemonSignals" }

    func run() async throws {
        var reload = self.reload
        for await signal in signals.cancelOnGracefulShutdown() {
            if signal == .sighup {
                reload.run()
            } else {
                logger.info("shutting down", metadata: ["signal": "\(signal)"])
                return
            }
        }
    }
}
