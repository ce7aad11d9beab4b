import Logging
import NIOCore
import NIOPosix
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
                    try await Self.sleep(microseconds: Int64(interval))
                }
            }
        } else {
            try? await gracefulShutdown()
        }
        SystemdActivation.notify("STOPPING=1")
    }

    /// Sleeps on one of NIO's event loops. Not `Task.sleep`: that goes through libdispatch, whose
    /// pool monitor would then wake the process every second for good (docs/performance.md, "Idle").
    static func sleep(microseconds: Int64) async throws {
        let scheduled = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: .microseconds(microseconds)) {}
        try await withTaskCancellationHandler {
            try await scheduled.futureResult.get()
        } onCancel: {
            scheduled.cancel()
        }
    }
}
