import NIOCore

/// How fast one client's requests are read, by what their replies cost: a token bucket of reply
/// bytes (docs/security.md, "What a client can and cannot do"). Each request is bounded on its own
/// (a `live` reply or a snapshot by half of `queue.disconnectAfterBytes`, a `history` reply by
/// `historyPageBytes`), but not how often a client asks: one that asks for `live` in a loop during
/// a resting contact kept the event loop, which also reads the devices, busy with its replies.
/// Past the burst, the next request is read once the bucket has refilled to 0; nothing is
/// refused, dropped or answered differently. Pure: the caller passes the time.
public struct RequestPacing: Sendable {
    /// Reply bytes a client may take at once.
    public let burst: Int
    /// Reply bytes per second past the burst.
    public let bytesPerSecond: Int
    /// What each request is charged at least: a flood of cheap requests costs their parsing.
    public let minimumCharge: Int

    private var credit: Int
    private var updated: NIODeadline?
    /// Times a client's reading waited for the bucket (`stats`' `paced`).
    public private(set) var waits = 0

    /// A full bucket. The defaults: 8 MiB at once (four of the largest `live` replies, 32 history
    /// pages, 8192 small requests), then 2 MiB per second, each request at least 1 KiB.
    public init(burst: Int = 8 << 20, bytesPerSecond: Int = 2 << 20, minimumCharge: Int = 1024) {
        precondition(burst > 0 && bytesPerSecond > 0 && bytesPerSecond <= 1_000_000_000 && minimumCharge > 0)
        self.burst = burst
        self.bytesPerSecond = bytesPerSecond
        self.minimumCharge = minimumCharge
        credit = burst
    }

    /// Charges a request whose replies took `bytes`, answered at `now`: how long to wait before
    /// reading the client's next request, or nil to read it at once.
    public mutating func charge(_ bytes: Int, at now: NIODeadline) -> TimeAmount? {
        let nanosecondsPerByte = 1_000_000_000 / Int64(bytesPerSecond)
        if let updated, now > updated {
            let refill = (now - updated).nanoseconds / nanosecondsPerByte
            credit = Int(min(Int64(burst), Int64(credit) + refill))
        }
        updated = now
        credit -= min(max(bytes, minimumCharge), burst)
        guard credit < 0 else { return nil }
        waits += 1
        // The deficit at the refill rate; the next charge refills from `now`.
        return .nanoseconds(Int64(-credit) * nanosecondsPerByte)
    }
}
