import InputCore
import Logging
import MultitouchDecoder
import NIOCore
import StrokeProtocol
import StrokeTracker

/// The running daemon: the hub, the connected clients, and what the sources feed in. Every
/// method must be called on `loop`; sources on other threads hop there with `loop.execute`.
/// The reader never waits for a client: a message is queued per client and written as the socket
/// accepts it (`ClientConnection.pump`).
public final class Daemon: @unchecked Sendable {
    public static let version = "0.2.0"
    public let loop: EventLoop
    public private(set) var settings: Settings
    let logger: Logger
    public private(set) var hub: Hub
    var clients: [UInt64: ClientConnection] = [:]
    private var nextClient: UInt64 = 1
    /// Random per start, so a client can tell that sequence numbers restarted.
    public let instance: String
    private var batch: [Broadcast] = []
    public private(set) var stopping = false
    var disconnectedSlow: UInt64 = 0

    public struct Settings: Sendable {
        public var historyLimit = 256
        public var resumeLimit = 4096
        public var queue = QueueLimits()
        public var maxLineLength = 65536
        public var allowUIDs: Set<UInt32>? = nil
        public var allowGIDs: Set<UInt32>? = nil
        /// How long a disconnected client's last messages (and `goodbye`) may take to be written.
        public var closeGrace = TimeAmount.seconds(2)
        public init() {}
    }

    public init(loop: EventLoop, settings: Settings, logger: Logger) {
        self.loop = loop
        self.settings = settings
        self.logger = logger
        self.hub = Hub(historyLimit: settings.historyLimit, resumeLimit: settings.resumeLimit)
        self.instance = String(UInt64.random(in: 1...UInt64.max), radix: 16)
    }

    /// Applies what a configuration reload (SIGHUP) may change while running: queue limits (for
    /// every client, from its next message), the line limit and the allow-lists (for the next
    /// request and connection), and each device's calibration (for points from now on). The
    /// history and resume sizes keep their start values.
    public func reload(settings new: Settings, calibration: (DeviceInfo) -> Calibration) {
        loop.preconditionInEventLoop()
        var s = new
        s.historyLimit = settings.historyLimit
        s.resumeLimit = settings.resumeLimit
        settings = s
        for client in clients.values { client.queue.setLimits(mergeAfter: s.queue.mergeAfter, disconnectAfter: s.queue.disconnectAfter) }
        for info in hub.deviceInfos { hub.setCalibration(info.id, calibration(info)) }
    }

    // MARK: Sources

    /// Adds a device and announces it.
    public func addDevice(
        path: String, description: DeviceDescription, calibration: Calibration = .identity, group: String? = nil,
        arbitration: Bool = true, jumps: JumpSetting = .deviceDefault
    ) throws -> DeviceID {
        loop.preconditionInEventLoop()
        let (id, added) = try hub.addDevice(
            path: path, description: description, calibration: calibration, group: group, arbitration: arbitration,
            jumps: jumps)
        logger.info("device added", metadata: ["device": "\(id)", "name": "\(description.name)", "path": "\(path)"])
        publish([added])
        return id
    }

    public func process(_ input: FrameInput, device: DeviceID) {
        batch.removeAll(keepingCapacity: true)
        hub.process(input, device: device, into: &batch)
        publish(batch)
    }

    public func process(_ frame: Frame, origin: FrameOrigin, device: DeviceID) {
        batch.removeAll(keepingCapacity: true)
        hub.process(frame, origin: origin, device: device, into: &batch)
        publish(batch)
    }

    public func removeDevice(_ device: DeviceID, time: Timestamp?) {
        batch.removeAll(keepingCapacity: true)
        hub.removeDevice(device, time: time, into: &batch)
        logger.info("device removed", metadata: ["device": "\(device)"])
        publish(batch)
    }

    func publish(_ messages: [Broadcast]) {
        guard !messages.isEmpty else { return }
        var outgoing: [Outgoing] = []  // made once, for the first subscriber
        for client in clients.values where client.subscription != nil {
            if outgoing.isEmpty { outgoing = messages.map(Outgoing.shared) }
            var ok = true
            for (m, out) in zip(messages, outgoing) where client.wants(m) {
                if !client.enqueue(out) {
                    ok = false
                    break
                }
            }
            if ok {
                client.pump()
            } else {
                disconnectedSlow += 1
                client.logger.warning("disconnecting a client that does not keep up", metadata: ["queued": "\(client.queue.count)"])
                disconnect(client, reason: "slowClient")
            }
        }
    }

    // MARK: Clients

    func clientConnected(_ channel: Channel, peer: PeerCredentials?) -> ClientConnection? {
        let client = ClientConnection(id: nextClient, channel: channel, limits: settings.queue, logger: logger)
        nextClient += 1
        client.peer = peer
        client.logger.info("client connected", metadata: ["peer": "\(peer.map(\.description) ?? "unknown")"])
        if let peer, !allowed(peer) {
            client.logger.warning("client refused: not in the allow-list", metadata: ["peer": "\(peer)"])
            _ = client.enqueue(.line(ProtocolError(.forbidden, "uid \(peer.uid) / gid \(peer.gid) may not connect", id: nil).json))
            client.pump()
            channel.close(promise: nil)
            return nil
        }
        clients[client.id] = client
        _ = client.enqueue(.line(helloLine()))
        client.pump()
        return client
    }

    func clientGone(_ client: ClientConnection) {
        if clients.removeValue(forKey: client.id) != nil {
            client.logger.info("client disconnected", metadata: ["sent": "\(client.sent)"])
        }
    }

    private func allowed(_ peer: PeerCredentials) -> Bool {
        if settings.allowUIDs == nil && settings.allowGIDs == nil { return true }
        if peer.uid == 0 { return true }
        return settings.allowUIDs?.contains(peer.uid) == true || settings.allowGIDs?.contains(peer.gid) == true
    }

    /// Sends `goodbye` and closes. With `drain`, everything still queued goes first (shutdown);
    /// otherwise it is dropped (a client that does not keep up).
    func disconnect(_ client: ClientConnection, reason: String, drain: Bool = false) {
        guard !client.closing else { return }
        client.closing = true
        clients.removeValue(forKey: client.id)
        var w = JSONWriter()
        w.field("type", "goodbye")
        w.field("reason", reason)
        if drain {
            client.pumpAll()
        }
        var buffer = client.channel.allocator.buffer(capacity: 64)
        buffer.writeString(w.finish() + "\n")
        let channel = client.channel
        channel.writeAndFlush(buffer).whenComplete { _ in channel.close(promise: nil) }
        // A client that reads nothing never lets that write complete: close regardless, so a
        // stalled client neither keeps its descriptor nor holds up a shutdown.
        loop.scheduleTask(in: settings.closeGrace) { channel.close(promise: nil) }
    }

    func helloLine() -> String {
        var w = JSONWriter()
        w.field("type", "hello")
        w.field("protocol", ProtocolVersion.current)
        w.field("daemon", "strokes \(Daemon.version)")
        w.field("instance", instance)
        w.field("seq", hub.seq)
        w.field("features", strings: Daemon.features)
        w.field("maxLineLength", settings.maxLineLength)
        return w.finish()
    }

    public static let features = ["subscribe", "filters", "snapshot", "resume", "merge", "devices", "live", "history", "ping", "stats", "hover"]

    /// Figures for `stats` and tests.
    public struct Stats: Sendable {
        public var clients: Int
        public var slowClientsDisconnected: UInt64
    }

    public var stats: Stats { Stats(clients: clients.count, slowClientsDisconnected: disconnectedSlow) }

    // MARK: Shutdown

    /// Cancels every live stroke (`shutdown`), says goodbye to every client and closes them.
    /// The future completes when every client is closed.
    public func shutdown() -> EventLoopFuture<Void> {
        loop.preconditionInEventLoop()
        stopping = true
        batch.removeAll(keepingCapacity: true)
        hub.cancelAll(reason: .shutdown, time: nil, into: &batch)
        publish(batch)
        let all = Array(clients.values)
        for c in all { disconnect(c, reason: "shutdown", drain: true) }
        let closed = all.map { $0.channel.closeFuture }
        return EventLoopFuture.andAllComplete(closed, on: loop)
    }
}
