import Logging
import NIOCore
import StrokeProtocol
import StrokeTracker

/// What a client is sent: a line and its newline, either a stream message's bytes, made once (by
/// `Hub`) and shared by every subscriber's queue and the resume buffer, or a line of its own (a
/// reply, an error, a snapshot). Small on purpose: a client that falls behind holds one per
/// queued message (`ClientQueue`), and what it holds is charged to its limits (`charge`).
struct Outgoing: Sendable {
    var bytes: ByteBuffer
    /// Where a slow client's `,"merged":n` goes in `bytes` (`Broadcast.mergedOffset`); -1 for a
    /// line that is never merged.
    var mergedOffset: Int32

    /// A stream message: its bytes, shared.
    static func shared(_ b: Broadcast) -> Outgoing {
        Outgoing(bytes: b.bytes, mergedOffset: b.mergedOffset.map { Int32(truncatingIfNeeded: $0) } ?? -1)
    }

    /// A line of the client's own.
    static func line(_ line: String) -> Outgoing { Outgoing(bytes: lineBuffer(line), mergedOffset: -1) }

    /// What the daemon holds for a queued message of `lineBytes`: the line and the queue's record of
    /// it (docs/protocol.md, "Slow clients"). A stream message's line is shared by every client
    /// holding it, yet charged to each; the record is each one's own.
    static func charge(lineBytes: Int) -> Int { lineBytes + recordBytes }

    /// What the daemon holds for a queued line of the client's own (a reply, an error, a
    /// snapshot): the buffer made for it alone, that buffer's storage object, and the queue's
    /// record. NIO rounds a buffer's size up to a power of two: up to a page, that is memory in
    /// use (the heap's chunks share pages); past it, the pages the line does not reach are never
    /// touched. Charged as its line and record only, a pipelined `ping`'s reply held about twice
    /// what it counted (an adversary's finding).
    static func charge(own bytes: ByteBuffer) -> Int {
        (bytes.capacity <= 4096 ? bytes.capacity : bytes.readableBytes) + bufferBytes + recordBytes
    }

    /// A buffer's storage object (NIO's `_Storage`: 64 bytes) and the heap's headers of it and
    /// of its bytes.
    static let bufferBytes = 96

    /// The size of a queued message's record (`ClientQueue`'s entry).
    static let recordBytes = MemoryLayout<ClientQueue<Outgoing>.Entry?>.stride

    /// A stream message's bytes with `,"merged":count` at `offset` (`Broadcast.mergedOffset`):
    /// what a slow client gets for a `moved` (or hover `motion`) that stands for `count` earlier ones.
    static func merged(_ shared: ByteBuffer, at offset: Int, count: Int) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: shared.readableBytes + 32)
        appendMerged(shared, at: offset, count: count, to: &buffer)
        return buffer
    }

    /// Appends what `merged` returns to `buffer`.
    static func appendMerged(_ shared: ByteBuffer, at offset: Int, count: Int, to buffer: inout ByteBuffer) {
        let bytes = shared.readableBytesView
        buffer.writeBytes(bytes.prefix(offset))
        buffer.writeStaticString(",\"merged\":")
        buffer.writeString(String(count))
        buffer.writeBytes(bytes.dropFirst(offset))
    }

    /// `line` and its newline as bytes.
    static func lineBuffer(_ line: String) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}

/// The peer of a connection, from `SO_PEERCRED`.
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

/// One connected client; confined to the daemon's event loop.
final class ClientConnection {
    let id: UInt64
    let channel: Channel
    var peer: PeerCredentials?
    /// Its supplementary groups (`SO_PEERGROUPS`), when read: what the allow-lists are checked
    /// against again on reload.
    var groups: Set<UInt32>?
    var subscription: ClientRequest.Subscription? {
        didSet {
            typeFilter = TypeFilter(subscription?.events)
            deviceFilter = subscription?.devices
        }
    }
    private var typeFilter = TypeFilter(nil)
    /// The subscription's `devices`, kept apart so that filtering reads one field, not the
    /// whole subscription, per message.
    private var deviceFilter: Set<UInt32>?
    /// Subscribed, and to `gesture`.
    var wantsGestures: Bool { subscription != nil && typeFilter.gestures }
    var queue: ClientQueue<Outgoing>
    var sent: UInt64 = 0
    /// `write` is running: a `pump` from inside it (NIO calling back during a write) is noted in
    /// `writeRequested` and done after it, in order.
    private var writing = false
    private var writeRequested = false
    private var writeAllRequested = false
    /// Bytes of the lines queued for it that are not the stream's: replies, errors, snapshots and
    /// resumed messages (what `pacing` charges its requests).
    private(set) var repliedBytes = 0
    /// How fast its requests are read (`ClientHandler`).
    var pacing = RequestPacing()
    /// Its longest request line: what its `hello` said (a reload changes it for clients that
    /// connect after it; one already greeted could not know).
    var maxLineLength = 65536
    /// Since when the client's socket has taken nothing while messages wait for it (nil while it
    /// takes what it is given).
    var stalledSince: NIODeadline?
    /// Called when the stall clock starts (`stalledSince` set where it was nil): the daemon
    /// arms a check for its end (`Daemon.armStallCheck`), so a client judged only when a frame is
    /// published (one that holds nothing but replies; any, while nothing touches) is judged too.
    var stallStarted: (() -> Void)?
    /// That check, while armed.
    var stallCheck: Scheduled<Void>?

    /// Cancels the stall check (the client is going).
    func cancelStallCheck() {
        stallCheck?.cancel()
        stallCheck = nil
    }
    /// The kernel's count of bytes written to the socket and not yet read by the client, when
    /// last looked at (`unreadBytes`).
    private var lastUnread: UInt32?
    /// What the socket has taken so far: the bytes of the daemon's direct sends and of NIO's
    /// completed writes (for a client NIO writes for, what it was handed less what it still
    /// holds), and its value at the last look. It growing is progress too: a client that drains
    /// its socket, which the daemon fills up again to the same level between two looks, shows the
    /// same unread count (a reader draining every 1.4 s was cut by a 2 s stall time: an
    /// adversary's finding).
    private var socketTook: UInt64 = 0
    private var lastSocketTook: UInt64 = 0
    /// For a client NIO writes for: the bytes handed to NIO so far.
    private var handedTotal: UInt64 = 0
    var closing = false
    let logger: Logger
    /// Where a pump gathers its messages to hand them to the channel as one buffer; reused from
    /// pump to pump (NIO lets go of it once `writev` took it), so a client that keeps up costs no
    /// allocation per frame.
    private var batch: ByteBuffer
    /// The socket's descriptor, for a client written to directly (`DirectSocket`): set for the
    /// Unix-socket clients, whose channel adds no framing to what they are sent.
    var descriptor: Int32?
    /// Writes handed to NIO and not yet done, for a client written to directly: the socket took
    /// only part of a batch, so NIO holds the rest and waits for the socket to drain; what follows
    /// waits in the queue until NIO has written it all, then direct writes resume (the order of
    /// the bytes is kept: nothing is sent while NIO holds any, but at a close that writes all).
    private var handedToNIO = 0
    /// Bytes handed to NIO and not yet written (or dropped at close): for a client written to
    /// directly, the storage of the rest of a write its socket did not take (up to a whole reply
    /// or snapshot), counted per write; for one NIO writes for (HTTP, SSE, WebSocket: framed on
    /// the way out), what NIO's channel buffers of its writes, read when the daemon is about to
    /// give it more or look at what it holds (`refreshHanded`). Kept in the queue (`outside`),
    /// which counts them against the client's limits.
    private var handedBytes: Int {
        get { queue.outside }
        set { queue.outside = newValue }
    }
    /// What the daemon holds for the client: its queue's charged bytes and `handedBytes` (what
    /// the limits and `stats`' `queuedBytes` count; docs/protocol.md, "Slow clients"), NIO's
    /// figure read first for a client NIO writes for (a method: it updates the queue's count).
    func currentHeldBytes() -> Int {
        refreshHanded()
        return queue.held
    }

    /// For a client NIO writes for, `handedBytes` from NIO's count of what its channel buffers
    /// (it has no promise per write to count them by, and its bytes grow on the way out). NIO
    /// writes some of them between two looks: the figure is as of the last look, at most one
    /// frame old when limits are judged.
    private func refreshHanded() {
        guard descriptor == nil else { return }
        handedBytes = (try? channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
    }
    /// The most it has held (its queue's charged bytes and `handedBytes`) since it last held
    /// nothing, or since the daemon took the figure (`takeHeldPeak`).
    private var heldPeak = 0
    /// Called with that peak when it holds nothing again after holding at least `drainReportBytes`
    /// (a client that fell behind caught up): the daemon gives the memory back
    /// (`Daemon.clientReleased`), as for a queue dropped.
    var drained: ((Int) -> Void)?
    static let drainReportBytes = 256 << 10
    /// Batches (or lone messages) sent straight to the socket, and handed to NIO, so far.
    private(set) var sentDirectly: UInt64 = 0
    private(set) var sentThroughNIO: UInt64 = 0

    init(id: UInt64, channel: Channel, limits: QueueLimits, logger: Logger) {
        self.id = id
        self.channel = channel
        self.queue = ClientQueue(
            mergeThreshold: limits.mergeAfter, disconnectThreshold: limits.disconnectAfter, byteLimit: limits.disconnectAfterBytes)
        self.batch = channel.allocator.buffer(capacity: ClientConnection.batchCapacity)
        var logger = logger
        logger[metadataKey: "client"] = "\(id)"
        self.logger = logger
    }

    /// Whether a stream message passes the client's subscription filter.
    func wants(_ b: Broadcast) -> Bool {
        guard subscription != nil else { return false }
        if let devices = deviceFilter, !devices.contains(b.device.rawValue) { return false }
        return typeFilter.passes(b)
    }

    /// Queues a line of the client's own (a reply, an error, a snapshot), never merged; false when
    /// the client has fallen too far behind and must go.
    func enqueue(_ message: Outgoing) -> Bool {
        repliedBytes &+= message.bytes.readableBytes
        refreshHanded()
        return held(queue.enqueue(message, mergeKey: nil, bytes: Outgoing.charge(own: message.bytes)))
    }

    /// Queues a stream message; false when the client has fallen too far behind and must go. One
    /// that is not `mergeable` (sent for a resume) is never merged with another.
    func enqueue(_ b: Broadcast, mergeable: Bool = true) -> Bool {
        if let finished = b.finishedKey { queue.finished(finished) }
        if !mergeable { repliedBytes &+= b.bytes.readableBytes }
        let key = mergeable ? b.mergeKey : nil
        return held(queue.enqueue(.shared(b), mergeKey: key, bytes: Outgoing.charge(lineBytes: b.bytes.readableBytes)))
    }

    /// Whether an enqueue kept the client (not `overflow`), noting what the queue holds now.
    private func held(_ result: ClientQueue<Outgoing>.EnqueueResult) -> Bool {
        noteHeld()
        return result != .overflow
    }

    private func noteHeld() {
        let now = queue.held
        if now > heldPeak { heldPeak = now }
    }

    /// The most it has held since it last held nothing, for a daemon letting it go (what goes back
    /// to the system with it: `Daemon.clientReleased`); counted once.
    func takeHeldPeak() -> Int {
        defer { heldPeak = 0 }
        return max(heldPeak, currentHeldBytes())
    }

    /// Writes what the socket takes without blocking; the rest waits for writability.
    func pump() { write(all: false) }

    /// Gives the client a frame's stream messages, those it wants; false when it has fallen too
    /// far behind and must go. Queued and pumped, except for a client that has nothing waiting
    /// (`sendAtOnce`).
    func publish(_ messages: [Broadcast]) -> Bool {
        if sendAtOnce(messages) { return true }
        refreshHanded()
        for m in messages where wants(m) {
            guard enqueue(m) else { return false }
        }
        pump()
        return true
    }

    /// The messages `publish` gives, sent straight to the socket as one write, for a client
    /// written to directly that has nothing waiting (its queue empty, NIO holding none of its
    /// bytes): what `enqueue` of each and `pump` send, without passing each message through the
    /// queue (whose merge index hashes every `moved` in and out), so a client that keeps up costs
    /// a filter, a copy and a `send` per frame. False, having sent nothing, when that does not
    /// hold, when the queue would merge any of them (limits smaller than a frame), or when they
    /// are more than one batch.
    private func sendAtOnce(_ messages: [Broadcast]) -> Bool {
        guard let descriptor, handedToNIO == 0, queue.isEmpty, !writing, channel.isActive else { return false }
        var count = 0
        var size = 0
        var charged = 0
        var lone: ByteBuffer?
        batch.clear()
        for m in messages where wants(m) {
            count += 1
            size += m.bytes.readableBytes
            charged += Outgoing.charge(lineBytes: m.bytes.readableBytes)
            guard !queue.merges(holding: count, bytes: charged), size <= ClientConnection.batchBytes else {
                batch.clear()
                return false
            }
            if let first = lone {
                if count == 2 { batch.writeImmutableBuffer(first) }
                batch.writeImmutableBuffer(m.bytes)
            } else {
                lone = m.bytes
            }
        }
        if let out = count > 1 ? batch : lone {
            sent += UInt64(count)
            send(out, to: descriptor)
        }
        finishWrite(wrote: count > 0)
        return true
    }

    /// Hands everything queued to the channel, writable or not (before closing it).
    func pumpAll() { write(all: true) }

    /// A batch is handed to the channel once it holds this many bytes, and writability is looked
    /// at again before the next one (as it was before every message when each went on its own):
    /// NIO holds at most this much, plus a message, beyond its high-water mark.
    static let batchBytes = 16 << 10
    /// The batch buffer's size when made; one grown past `batchBytes` (a long reply) is not kept.
    static let batchCapacity = 1 << 10

    /// Hands the channel what is queued as one write per batch (one trip through the pipeline,
    /// one buffer for `writev`) and flushes once. A lone message goes as its own bytes (a stream
    /// message's, those every client shares); several are copied into the client's batch buffer, once.
    private func write(all: Bool) {
        // Not re-entered: NIO can call `channelWritabilityChanged` (and so `pump`) from inside a
        // write, while an encoder is between the parts of one message (a chunk's size, data and
        // CRLF; a WebSocket frame per line); a write from there came before the rest of the
        // batch being written (messages out of order over WebSocket, a malformed chunk over
        // SSE: found by an adversary). The write in progress goes on until the queue allows.
        guard !writing else {
            writeRequested = true
            writeAllRequested = writeAllRequested || all
            return
        }
        writing = true
        defer { writing = false }
        var all = all
        repeat {
            writeRequested = false
            writeOnce(all: all)
            all = writeAllRequested
            writeAllRequested = false
        } while writeRequested && channel.isActive
    }

    private func writeOnce(all: Bool) {
        guard channel.isActive else { return }
        if let descriptor, handedToNIO == 0, !all {
            writeDirectly(to: descriptor)
            return
        }
        // While NIO holds the rest of a write the socket did not take, what follows goes to NIO
        // in whole batches (up to its high-water mark), and waits in the queue until a batch is
        // full or NIO is done. Handed over one by one as it came, each reply was a write and a
        // promise of its own: 1 600 pings pipelined by a client that read nothing held ~0.5 MB
        // for the ~100 KB charged (an adversary's finding).
        let minimum = descriptor != nil && !all ? ClientConnection.batchBytes : 0
        var wrote = false
        while all || channel.isWritable, queue.bytes >= minimum, let first = queue.dequeue() {
            sent += 1
            wrote = true
            hand(bytes(startingWith: first))
        }
        if wrote { channel.flush() }
        finishWrite(wrote: wrote)
    }

    /// `write(all: false)` for a client with a descriptor and nothing in NIO's hands: each batch
    /// is sent straight to the socket; what it does not take goes to NIO (`hand`), and so does
    /// everything after it until NIO has written it.
    private func writeDirectly(to descriptor: Int32) {
        var wrote = false
        while let first = queue.dequeue() {
            sent += 1
            wrote = true
            if !send(bytes(startingWith: first), to: descriptor) { break }
        }
        finishWrite(wrote: wrote)
    }

    /// Sends `bytes` straight to the socket; what it does not take goes to NIO (`hand`, flushed).
    /// Returns whether the socket took them all.
    @discardableResult
    private func send(_ bytes: ByteBuffer, to descriptor: Int32) -> Bool {
        let taken = DirectSocket.send(descriptor, bytes) ?? 0
        socketTook &+= UInt64(taken)
        if taken == bytes.readableBytes {
            sentDirectly += 1
            return true
        }
        var rest = bytes
        rest.moveReaderIndex(forwardBy: taken)
        hand(rest)
        channel.flush()
        return false
    }

    /// What to write next, from `first` on: a lone message as its own bytes (a stream message's
    /// shared by every client), or `first` and the messages after it copied into `batch`, up to
    /// `batchBytes`.
    private func bytes(startingWith first: ClientQueue<Outgoing>.Entry) -> ByteBuffer {
        if queue.isEmpty, first.merged == 0 { return first.message.bytes }
        batch.clear()
        append(first)
        while batch.readableBytes < ClientConnection.batchBytes, let next = queue.dequeue() {
            append(next)
            sent += 1
        }
        return batch
    }

    /// Gives NIO a write (flushed by the caller); for a client written to directly, counted in
    /// `handedToNIO` until NIO is done with it, and direct writes resume once it has none.
    private func hand(_ bytes: ByteBuffer) {
        sentThroughNIO += 1
        var bytes = bytes
        if bytes.capacity > 2 * bytes.readableBytes {
            // NIO keeps what it is handed until it is written, and takes writes up to its
            // high-water mark in bytes, not buffers: a write that fills less than half its buffer
            // goes as a copy of its own size. The rest of a reply the socket did not take kept the
            // whole reply (a never-reading client that asked for a 288 KB `history` page held all
            // of it for ~30 KB); a frame's few lines in the batch buffer kept all of it, 32 KiB
            // for 1-2 KiB, forty times over for a client that keeps up through NIO (1.5 MB,
            // counted in its queued bytes, and its moves merged for it: found by an adversary).
            var copy = channel.allocator.buffer(capacity: bytes.readableBytes)
            copy.writeImmutableBuffer(bytes)
            bytes = copy
        }
        guard descriptor != nil else {
            handedTotal &+= UInt64(bytes.readableBytes)
            channel.write(bytes, promise: nil)
            return
        }
        handedToNIO += 1
        // The storage NIO keeps (a reply's, a batch's, a shared line's), not only what is left to write.
        let size = bytes.capacity
        handedBytes += size
        noteHeld()
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenComplete { _ in
            self.handedToNIO -= 1
            self.handedBytes -= size
            self.socketTook &+= UInt64(size)
            if self.handedToNIO == 0 { self.pump() }
        }
        channel.write(bytes, promise: promise)
    }

    private func finishWrite(wrote: Bool) {
        if batch.capacity > ClientConnection.batchBytes {
            batch = channel.allocator.buffer(capacity: ClientConnection.batchCapacity)
        }
        refreshHanded()
        if heldPeak > 0, queue.isEmpty, handedBytes == 0 {
            if heldPeak >= ClientConnection.drainReportBytes { drained?(heldPeak) }
            heldPeak = 0
        }
        noteProgress(wrote: wrote)
    }

    /// Appends a dequeued message's bytes to `batch`.
    private func append(_ entry: ClientQueue<Outgoing>.Entry) {
        // Only a message with a `mergedOffset` has a merge key (`Broadcast.mergeKey`).
        if entry.merged > 0, entry.message.mergedOffset >= 0 {
            Outgoing.appendMerged(entry.message.bytes, at: Int(entry.message.mergedOffset), count: entry.merged, to: &batch)
        } else {
            batch.writeImmutableBuffer(entry.message.bytes)
        }
    }

    /// Progress is the socket taking bytes, not the daemon handing them to NIO: a client that
    /// reads a little at a time never lets NIO's buffer drain to writable again, yet it reads.
    /// While anything waits (in the queue, or in NIO's buffer over its high mark), the kernel's
    /// count of unread bytes changing (the client read a write's bytes and the kernel freed
    /// them, or the kernel took more) is progress; unchanged, the stall clock runs.
    private func noteProgress(wrote: Bool) {
        guard !queue.isEmpty || !channel.isWritable else {
            stalledSince = nil
            lastUnread = nil
            return
        }
        let unread = descriptor.flatMap(DirectSocket.unreadBytes) ?? ClientConnection.unreadBytes(channel)
        // Without the count (a kernel before 4.12), handing bytes to NIO counts, as it did.
        let started = stalledSince == nil
        if descriptor == nil {
            // NIO's framing can make what it holds exceed what it was handed: never below zero,
            // never backwards.
            let held = min(UInt64(max(0, handedBytes)), handedTotal)
            socketTook = max(socketTook, handedTotal - held)
        }
        // Up, not changed: NIO's framing (a WebSocket frame's head, an SSE event's lines) makes
        // what it holds grow by more than it was handed.
        let took = socketTook > lastSocketTook
        if started || (unread == nil && wrote) || unread != lastUnread || took { stalledSince = .now() }
        lastUnread = unread
        lastSocketTook = socketTook
        if started { stallStarted?() }
    }

    /// `SO_MEMINFO`'s `SK_MEMINFO_WMEM_ALLOC`: memory of the socket's writes the client has not
    /// read yet (the kernel frees a write's buffer once it has all been read).
    static func unreadBytes(_ channel: Channel) -> UInt32? {
        let info: SocketMemoryInfo? = SocketOption.read(channel, SocketMemoryInfo.option)
        return info?.unreadBytes
    }
}

/// `SO_MEMINFO`'s counters (`SK_MEMINFO_*`).
struct SocketMemoryInfo: Sendable {
    static let option: Int32 = 55  // SO_MEMINFO
    var values: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// `SK_MEMINFO_WMEM_ALLOC`.
    var unreadBytes: UInt32 { values.2 }
}

/// The slow-client thresholds (docs/protocol.md, "Slow clients").
public struct QueueLimits: Hashable, Sendable {
    /// Queued messages from which consecutive moves of a stroke are merged.
    public var mergeAfter: Int
    /// Queued messages past which the client is disconnected.
    public var disconnectAfter: Int
    /// Queued bytes past which the client is disconnected (merging starts at a quarter of it).
    public var disconnectAfterBytes: Int
    /// Queued bytes across all clients past which the clients holding the most are disconnected
    /// until the total is back under it.
    public var totalBytes: Int
    /// How long a client's socket may take nothing while messages wait for it before the client
    /// is disconnected: a client that reads nothing at all goes long before its queue is full.
    public var disconnectAfterStall: TimeAmount

    public init(
        mergeAfter: Int = 1024, disconnectAfter: Int = 8192, disconnectAfterBytes: Int = 4 << 20, totalBytes: Int = 64 << 20,
        disconnectAfterStall: TimeAmount = .seconds(15)
    ) {
        self.disconnectAfterStall = disconnectAfterStall
        self.mergeAfter = mergeAfter
        self.disconnectAfter = disconnectAfter
        self.disconnectAfterBytes = disconnectAfterBytes
        self.totalBytes = totalBytes
    }
}
