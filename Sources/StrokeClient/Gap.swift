import StrokeProtocol

/// What a subscription yields: the daemon's messages, and the places where the stream could not
/// be continued.
public enum SubscriptionEvent: Sendable, Hashable {
    case message(ServerMessage)
    case gap(Gap)
}

/// Not a wire message: after a lost connection the stream could not continue after `lastSeq`.
/// What happened in between is lost; a `snapshot` of the strokes in progress follows at once, and
/// strokes the client knew of that are not in it ended (or were cancelled) meanwhile.
public struct Gap: Sendable, Hashable {
    public enum Reason: OpenStringEnum {
        /// The daemon no longer holds every message after `lastSeq` (its `resume` buffer is
        /// smaller than what was missed).
        case gapTooOld
        /// A new daemon instance answered: its sequence numbers start over.
        case restarted
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "gapTooOld": self = .gapTooOld
            case "restarted": self = .restarted
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .gapTooOld: "gapTooOld"
            case .restarted: "restarted"
            case .unknown(let reason): reason
            }
        }
    }

    public var reason: Reason
    /// The last sequence number delivered before the gap (nil: none was).
    public var lastSeq: UInt64?
    /// The daemon instance `lastSeq` belongs to.
    public var instance: String?

    public init(reason: Reason, lastSeq: UInt64?, instance: String?) {
        self.reason = reason
        self.lastSeq = lastSeq
        self.instance = instance
    }
}

/// Reconnection delays: `initial` seconds, times `factor` after each failure, at most `maximum`;
/// `attempts` failures in a row give up (nil: never).
public struct Backoff: Sendable, Hashable {
    public var initial: Double
    public var factor: Double
    public var maximum: Double
    public var attempts: Int?

    public init(initial: Double = 0.05, factor: Double = 2, maximum: Double = 2, attempts: Int? = nil) {
        self.initial = initial
        self.factor = factor
        self.maximum = maximum
        self.attempts = attempts
    }

    /// The delay after `failures` failures in a row (from 1).
    public func delay(after failures: Int) -> Double {
        var d = initial
        for _ in 1..<max(1, failures) { d *= factor }
        return min(maximum, d)
    }
}
