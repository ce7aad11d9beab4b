import Logging
import ServiceLifecycle

/// systemd's side of the lifecycle as a `Service` (`sd_notify(3)`, through `SystemdActivation`):
/// `READY=1` when it starts (the group starts once the socket is bound and the sources are
/// open), `WATCHDOG=1` every half `WATCHDOG_USEC` while the daemon runs and shuts down, and
/// `STOPPING=1` last, once the parts before it in the group have ended.
struct SystemdNotifier: Service, CustomStringConvertible {
    let devices: Int
    let logger: Logger
    var description: String { "SystemdNotifier" }

    func run() async throws {
        SystemdActivation.notify("READY=1\nSTATUS=serving \(devices) device(s)")
        logger.info("ready", metadata: ["devices": "\(devices)"])
        if let interval = SystemdActivation.watchdogInterval() {
            // Cancelled by this service's graceful shutdown, which comes after every other's.
            try? await cancelWhenGracefulShutdown {
                while true {
                    SystemdActivation.notify("WATCHDOG=1")
                    try await Task.sleep(for: .microseconds(interval))
                }
            }
        } else {
            try? await gracefulShutdown()
        }
        SystemdActivation.notify("STOPPING=1")
    }
}
