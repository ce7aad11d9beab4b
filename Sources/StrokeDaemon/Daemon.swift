import GestureRecognizer
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
///
/// Its state is loop-bound (`NIOLoopBoundBox`, `LoopBound`): touching any of it from another thread traps.
public final class Daemon: Sendable {
    public static let version = "0.2.0"
    public let loop: EventLoop
    let logger: Logger
    /// Random per start, so a client can tell that sequence numbers restarted.
    public let instance: String

    public private(set) var settings: Settings {
        get { _settings.value }
        _modify { yield &_settings.value }
    }
    public internal(set) var hub: Hub {
        _read { yield _hub.value }
        _modify { yield &_hub.value }
    }
    /// `body` with the hub in place, for reads that call into it on the per-frame path: a read
    /// through `hub` that calls a method of it may copy the whole hub out of its box first.
    func withHub<R>(_ body: (inout Hub) -> R) -> R { body(&_hub.value) }
    var clients: [UInt64: ClientConnection] {
        get { _clients.value }
        _modify { yield &_clients.value }
    }
    public private(set) var stopping: Bool {
        _read { yield _state.value.stopping }
        _modify { yield &_state.value.stopping }
    }
    var disconnectedSlow: UInt64 {
        _read { yield _state.value.disconnectedSlow }
        _modify { yield &_state.value.disconnectedSlow }
    }
    var refusedClients: UInt64 {
        _read { yield _state.value.refusedClients }
        _modify { yield &_state.value.refusedClients }
    }
    /// Rate limits for logging the decoders' diagnostics (`Daemon+Diagnostics.swift`).
    var diagnosticLog: DiagnosticLog {
        _read { yield _state.value.diagnosticLog }
        _modify { yield &_state.value.diagnosticLog }
    }
    var gestureTimers: [DeviceID: GestureTimer] {
        _read { yield _state.value.gestureTimers }
        _modify { yield &_state.value.gestureTimers }
    }
    var clockRates: [DeviceID: Double] {
        _read { yield _state.value.clockRates }
        _modify { yield &_state.value.clockRates }
    }
    private var batch: [Broadcast] {
        get { _batch.value }
        _modify { yield &_batch.value }
    }

    /// The daemon's bookkeeping besides the hub and the clients.
    private struct State {
        var nextClient: UInt64 = 1
        var stopping = false
        var disconnectedSlow: UInt64 = 0
        var refusedClients: UInt64 = 0
        /// The last failed accept of the current episode (`acceptFailed`), and how many failed.
        var lastAcceptFailure: NIODeadline?
        var acceptFailures = 0
        var diagnosticLog = DiagnosticLog()
        /// Each device's armed gesture timer and the deadline it is for (`Daemon+Gestures.swift`).
        var gestureTimers: [DeviceID: GestureTimer] = [:]
        /// How fast a device's clock runs against real time, where not 1 (`setClockRate`).
        var clockRates: [DeviceID: Double] = [:]
    }

    private let _settings: NIOLoopBoundBox<Settings>
    private let _hub: LoopBound<Hub>
    private let _clients: NIOLoopBoundBox<[UInt64: ClientConnection]>
    /// `publish`'s shared lines, kept to reuse the array's storage.
    private let _batch: NIOLoopBoundBox<[Broadcast]>
    private let _state: LoopBound<State>
    /// Queue memory let go of, for `clientReleased` (`Daemon+Memory.swift`).
    let _memory: LoopBound<MemoryState>

    public struct Settings: Sendable {
        public var historyLimit = 256
        public var resumeLimit = 4096
        public var queue = QueueLimits()
        public var maxLineLength = 65536
        /// The most a `history` reply's strokes take, in bytes (a page holds at least one stroke).
        public var historyPageBytes = 256 << 10
        /// Clients served at once, in all and per uid; more get `tooManyClients` and are closed.
        public var maxClients = 256
        public var maxClientsPerUid = 32
        public var allowUIDs: Set<UInt32>? = nil
        public var allowGIDs: Set<UInt32>? = nil
        /// How long a disconnected client's last messages (and `goodbye`) may take to be written.
        public var closeGrace = TimeAmount.seconds(2)
        /// How fast each client's requests are read, by their replies' bytes (a full bucket).
        public var requestPacing = RequestPacing()
        public init() {}
    }

    /// May be called on any thread; everything else on `loop` only.
    public init(loop: EventLoop, settings: Settings, logger: Logger) {
        self.loop = loop
        self.logger = logger
        let random = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        self.instance = String(repeating: "0", count: 16 - random.count) + random
        _settings = .makeBoxSendingValue(settings, eventLoop: loop)
        var hub = Hub(historyLimit: settings.historyLimit, resumeLimit: settings.resumeLimit)
        hub.encodesGestures = false  // until a client subscribes to them
        _hub = LoopBound(hub, loop: loop)
        _clients = .makeBoxSendingValue([:], eventLoop: loop)
        _batch = .makeBoxSendingValue([], eventLoop: loop)
        _state = LoopBound(State(), loop: loop)
        _memory = LoopBound(MemoryState(), loop: loop)
    }

    /// Applies what a configuration reload (SIGHUP) may change while running: queue limits (for
    /// every client, from its next message), the line limit (for connections made after it: a
    /// client keeps what its `hello` said), the
    /// allow-lists (for the next connection, and connected clients they no longer admit are
    /// disconnected: `forbidden`), and each device's calibration (for points from now on). The
    /// history and resume sizes keep their start values.
    public func reload(settings new: Settings, calibration: (DeviceInfo) -> Calibration) {
        var s = new
        s.historyLimit = settings.historyLimit
        s.resumeLimit = settings.resumeLimit
        settings = s
        for client in clients.values {
            client.queue.setLimits(
                mergeAfter: s.queue.mergeAfter, disconnectAfter: s.queue.disconnectAfter, byteLimit: s.queue.disconnectAfterBytes)
        }
        for info in hub.deviceInfos { hub.setCalibration(info.id, calibration(info)) }
        // The allow-lists apply to connected clients too: a peer they no longer admit goes.
        for client in clients.values {
            guard let peer = client.peer, !Daemon.allowed(peer, groups: client.groups, uids: s.allowUIDs, gids: s.allowGIDs)
            else { continue }
            client.logger.warning("client disconnected: no longer in the allow-list", metadata: ["peer": "\(peer)"])
            client.queue.removeAll()
            _ = client.enqueue(.line(ProtocolError(.forbidden, "uid \(peer.uid) / gid \(peer.gid) may no longer connect", id: nil).json))
            disconnect(client, reason: "forbidden", drain: true)
        }
    }

    // MARK: Sources

    /// Adds a device and announces it.
    public func addDevice(
        path: String, description: DeviceDescription, calibration: Calibration = .identity, group: String? = nil,
        arbitration: Bool = true, jumps: JumpSetting = .deviceDefault, gestures: GestureConfiguration = .init()
    ) throws -> DeviceID {
        let (id, added) = try hub.addDevice(
            path: path, description: description, calibration: calibration, group: group, arbitration: arbitration,
            jumps: jumps, gestures: gestures)
        logger.info("device added", metadata: ["device": "\(id)", "name": "\(terminalSafe(description.name))", "path": "\(path)"])
        publish([added])
        return id
    }

    public func process(_ input: FrameInput, device: DeviceID) {
        batch.removeAll(keepingCapacity: true)
        hub.process(input, device: device, into: &batch)
        published(device)
    }

    /// The same for a frame read in place: a live device's read (`EvdevSource`).
    public func process(_ input: FrameViewInput, device: DeviceID) {
        batch.removeAll(keepingCapacity: true)
        hub.process(input, device: device, into: &batch)
        published(device)
    }

    public func process(_ frame: Frame, origin: FrameOrigin, device: DeviceID) {
        batch.removeAll(keepingCapacity: true)
        hub.process(frame, origin: origin, device: device, into: &batch)
        published(device)
    }

    /// After the hub processed something of `device` into `batch`: sends it, re-arms the device's
    /// gesture timer, logs what the decoder reported.
    private func published(_ device: DeviceID) {
        publish(batch)
        armGestureTimer(device)
        if !hub.reports.isEmpty { logDiagnostics() }
    }

    /// Starts `device` over (`Hub.restartDevice`): a looped replay's next round.
    public func restartDevice(_ device: DeviceID) {
        batch.removeAll(keepingCapacity: true)
        hub.restartDevice(device, into: &batch)
        publish(batch)
        armGestureTimer(device)
    }

    public func removeDevice(_ device: DeviceID, time: Timestamp?) {
        clockRates[device] = nil
        batch.removeAll(keepingCapacity: true)
        hub.removeDevice(device, time: time, into: &batch)
        logger.info("device removed", metadata: ["device": "\(device)"])
        publish(batch)
        armGestureTimer(device)
    }

    func publish(_ messages: [Broadcast]) {
        guard !messages.isEmpty else { return }
        // The hot path, once per frame: the settings read once, each line's bytes the ones `Hub`
        // made for every client (`Outgoing.shared`), and the bytes every client holds summed in
        // the same pass that feeds them (not in a second pass over all clients).
        // A stalled client is judged by its stall check (`armStallCheck`), not here.
        var total = 0
        for client in clients.values {
            guard client.subscription != nil else {
                total += client.currentHeldBytes()
                continue
            }
            if client.publish(messages) {
                total += client.currentHeldBytes()
            } else {
                disconnectSlow(client, why: "its queue is full")
            }
        }
        if total > settings.queue.totalBytes { enforceTotalQueuedBytes() }
    }

    /// Checks `client` when its stall would pass `queue.disconnectAfterStall`, unless a check is
    /// armed already. The check looks at its socket again (a `pump`: progress restarts the
    /// clock); still stalled past the limit, the client goes, else the check is armed again.
    /// Nothing is armed while no client is stalled: an idle daemon still never wakes.
    func armStallCheck(_ client: ClientConnection) {
        guard client.stallCheck == nil, let since = client.stalledSince else { return }
        let due = since + settings.queue.disconnectAfterStall + .milliseconds(1)
        client.stallCheck = loop.assumeIsolated().scheduleTask(deadline: due) { [weak self, weak client] in
            guard let self, let client else { return }
            client.stallCheck = nil
            guard self.clients[client.id] === client, !client.closing else { return }
            client.pump()
            guard let since = client.stalledSince else { return }
            let stalled = NIODeadline.now() - since
            if stalled > self.settings.queue.disconnectAfterStall {
                self.disconnectSlow(client, why: "its socket took nothing for \(stalled.nanoseconds / 1_000_000) ms")
            } else {
                self.armStallCheck(client)
            }
        }
    }

    /// Disconnects a client that does not keep up (`goodbye` reason `slowClient`).
    func disconnectSlow(_ client: ClientConnection, why: String) {
        disconnectedSlow += 1
        client.logger.warning(
            "disconnecting a client that does not keep up: \(why)",
            metadata: ["queued": "\(client.queue.count)", "queuedBytes": "\(client.currentHeldBytes())"])
        disconnect(client, reason: "slowClient")
    }

    /// Bytes held for all clients together (`ClientConnection.currentHeldBytes()`).
    public var queuedBytes: Int { clients.values.reduce(0) { $0 + $1.currentHeldBytes() } }

    /// The global cap (`queue.totalBytes`): past it, the clients holding the most are disconnected
    /// first until the total is back under it. A client that keeps up holds next to nothing, so
    /// it is never the one chosen while a slow one holds more.
    func enforceTotalQueuedBytes() {
        var total = queuedBytes
        guard total > settings.queue.totalBytes else { return }
        let byHeld = clients.values.map { ($0, $0.currentHeldBytes()) }.sorted { $0.1 > $1.1 }
        for (client, held) in byHeld {
            guard total > settings.queue.totalBytes else { break }
            total -= held
            disconnectSlow(client, why: "all clients together hold more than queue.totalBytes")
        }
    }

    // MARK: Clients

    func clientConnected(
        _ channel: Channel, peer: PeerCredentials?, groups: Set<UInt32>? = nil, writesDirectly: Bool = false,
        maxLineLength: Int? = nil
    ) -> ClientConnection? {
        // An episode ends at the first connection a second after the last failure: while
        // descriptors come and go one at a time, accept alternates and that is one episode.
        if let last = _state.value.lastAcceptFailure, NIODeadline.now() - last > .seconds(1) {
            logger.notice("accepting connections again", metadata: ["failedAccepts": "\(_state.value.acceptFailures)"])
            _state.value.lastAcceptFailure = nil
            _state.value.acceptFailures = 0
        }
        let client = ClientConnection(id: _state.value.nextClient, channel: channel, limits: settings.queue, logger: logger)
        client.pacing = settings.requestPacing
        _state.value.nextClient += 1
        client.peer = peer
        client.groups = groups
        client.logger.info("client connected", metadata: ["peer": "\(peer.map(\.description) ?? "unknown")"])
        if let peer, !Daemon.allowed(peer, groups: groups, uids: settings.allowUIDs, gids: settings.allowGIDs) {
            client.logger.warning("client refused: not in the allow-list", metadata: ["peer": "\(peer)"])
            refuse(client, ProtocolError(.forbidden, "uid \(peer.uid) / gid \(peer.gid) may not connect", id: nil))
            return nil
        }
        if clients.count >= settings.maxClients {
            refuse(client, ProtocolError(.tooManyClients, "the daemon serves at most \(settings.maxClients) clients", id: nil))
            return nil
        }
        if let peer, clients.values.lazy.filter({ $0.peer?.uid == peer.uid }).count >= settings.maxClientsPerUid {
            refuse(
                client,
                ProtocolError(.tooManyClients, "uid \(peer.uid) has \(settings.maxClientsPerUid) connections already", id: nil))
            return nil
        }
        clients[client.id] = client
        client.drained = { [weak self] bytes in self?.clientReleased(bytes) }
        client.stallStarted = { [weak self, weak client] in
            if let self, let client { self.armStallCheck(client) }
        }
        if writesDirectly { client.descriptor = DirectSocket.descriptor(of: channel) }
        client.maxLineLength = maxLineLength ?? settings.maxLineLength
        _ = client.enqueue(.line(helloLine(maxLineLength: client.maxLineLength)))
        client.pump()
        return client
    }

    /// Sends the error and closes, before the client was ever served.
    private func refuse(_ client: ClientConnection, _ error: ProtocolError) {
        refusedClients += 1
        // A flood is logged, not echoed: the 1st, 2nd, 4th, 8th … refusal.
        if error.code == .tooManyClients, refusedClients & (refusedClients - 1) == 0 {
            client.logger.warning("client refused: \(error.message)", metadata: ["refusedSoFar": "\(refusedClients)"])
        }
        _ = client.enqueue(.line(error.json))
        client.pump()
        client.channel.close(promise: nil)
    }

    /// An accept failed (descriptors or memory exhausted): logged once per episode (which ends
    /// at a connection accepted a second after the last failure); the listener tries again after
    /// the back-off returned.
    public func acceptFailed(_ error: IOError) -> TimeAmount {
        if _state.value.lastAcceptFailure == nil {
            logger.error(
                "cannot accept connections: \(error); retrying every 100 ms while serving \(clients.count) client(s)")
        }
        _state.value.lastAcceptFailure = NIODeadline.now()
        _state.value.acceptFailures += 1
        return .milliseconds(100)
    }

    func clientGone(_ client: ClientConnection) {
        client.cancelStallCheck()
        if clients.removeValue(forKey: client.id) != nil {
            clientReleased(client.takeHeldPeak())
            updateGestureSubscribers()
            client.logger.info("client disconnected", metadata: ["sent": "\(client.sent)"])
        }
    }

    /// Whether the allow-lists admit the peer of `channel`, a Unix socket's connection that is not
    /// a client of the daemon (an HTTP request over a Unix listener); without credentials, only
    /// while there are no allow-lists.
    public func admitsPeer(of channel: Channel) -> Bool {
        guard let peer = ClientHandler.peerCredentials(channel) else {
            return settings.allowUIDs == nil && settings.allowGIDs == nil
        }
        return Daemon.allowed(peer, groups: PeerGroups.read(channel), uids: settings.allowUIDs, gids: settings.allowGIDs)
    }

    /// The allow-lists (docs/protocol.md, "Access"): with neither, everyone the socket's mode lets
    /// in; otherwise root, a listed uid, or a listed gid as the peer's primary group or one of
    /// its supplementary groups.
    public static func allowed(_ peer: PeerCredentials, groups: Set<UInt32>?, uids: Set<UInt32>?, gids: Set<UInt32>?) -> Bool {
        if uids == nil && gids == nil { return true }
        if peer.uid == 0 { return true }
        if uids?.contains(peer.uid) == true || gids?.contains(peer.gid) == true { return true }
        guard let gids, let groups else { return false }
        return !gids.isDisjoint(with: groups)
    }

    /// Sends `goodbye` and closes. With `drain`, everything still queued goes first (shutdown);
    /// otherwise it is dropped (a client that does not keep up).
    func disconnect(_ client: ClientConnection, reason: String, drain: Bool = false) {
        guard !client.closing else { return }
        client.closing = true
        client.cancelStallCheck()
        clients.removeValue(forKey: client.id)
        updateGestureSubscribers()
        clientReleased(client.takeHeldPeak())
        if !drain { client.queue.removeAll() }
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

    /// The greeting, with the line limit the connection keeps.
    func helloLine(maxLineLength: Int) -> String {
        var w = JSONWriter()
        w.field("type", "hello")
        w.field("protocol", ProtocolVersion.current)
        w.field("daemon", "strokes \(Daemon.version)")
        w.field("instance", instance)
        w.field("seq", hub.seq)
        w.field("features", strings: Daemon.features)
        w.field("maxLineLength", maxLineLength)
        return w.finish()
    }

    public static let features = [
        "subscribe", "filters", "snapshot", "resume", "merge", "devices", "live", "history", "ping", "stats", "hover", "gestures",
    ]

    /// Figures for `stats` and tests.
    public struct Stats: Sendable {
        public var clients: Int
        public var slowClientsDisconnected: UInt64
        /// Connections refused (allow-lists, `maxClients`, `maxClientsPerUid`).
        public var clientsRefused: UInt64
        /// Bytes queued for all clients together.
        public var queuedBytes: Int
    }

    public var stats: Stats {
        Stats(clients: clients.count, slowClientsDisconnected: disconnectedSlow, clientsRefused: refusedClients, queuedBytes: queuedBytes)
    }

    // MARK: Shutdown

    /// Cancels every live stroke (`shutdown`), says goodbye to every client and closes them.
    /// The future completes when every client is closed.
    public func shutdown() -> EventLoopFuture<Void> {
        stopping = true
        batch.removeAll(keepingCapacity: true)
        hub.cancelAll(reason: .shutdown, time: nil, into: &batch)
        publish(batch)
        for device in gestureTimers.keys { armGestureTimer(device) }
        let all = Array(clients.values)
        for c in all { disconnect(c, reason: "shutdown", drain: true) }
        let closed = all.map { $0.channel.closeFuture }
        return EventLoopFuture.andAllComplete(closed, on: loop)
    }
}
