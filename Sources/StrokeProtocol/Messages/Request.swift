// FoundationEssentials has JSONDecoder and Data without the rest of Foundation (and its ICU).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request a client sends (docs/protocol.md, "Requests"), encoding to exactly the keys the
/// daemon reads (`ClientRequest` is the daemon's side of it).
///
/// ```
/// try socket.send(Request(id: 7, .subscribe(events: [.began, .ended], resumeAfter: 812)).line())
/// ```
public struct Request: Codable, Sendable, Hashable {
    /// Echoed in the reply; nil sends none (the reply's `id` is then `null`).
    public var id: RequestID?
    public var command: Command

    public init(id: RequestID? = nil, _ command: Command) {
        self.id = id
        self.command = command
    }

    public enum Command: Sendable, Hashable {
        /// Starts (or replaces) the stream: only `devices` (all when nil), only `events` (all but
        /// `hover` when nil); with `resumeAfter`, the messages after that `seq` instead of a snapshot.
        case subscribe(devices: [UInt32]? = nil, events: [StreamType]? = nil, resumeAfter: UInt64? = nil)
        case unsubscribe
        case devices
        /// The strokes in progress, with their points so far.
        case live(devices: [UInt32]? = nil)
        /// Completed strokes, one page per reply: the most recent `limit` (all the daemon keeps when
        /// nil); `cursor` from the previous page's reply continues the selection.
        case history(limit: Int? = nil, devices: [UInt32]? = nil, cursor: String? = nil)
        case ping
        case stats

        /// The `request` name.
        public var name: String {
            switch self {
            case .subscribe: "subscribe"
            case .unsubscribe: "unsubscribe"
            case .devices: "devices"
            case .live: "live"
            case .history: "history"
            case .ping: "ping"
            case .stats: "stats"
            }
        }
    }

    /// A stream message type a subscription can ask for.
    public enum StreamType: OpenStringEnum {
        case began, moved, ended, cancelled, deviceAdded, deviceRemoved, hover
        /// Gesture steps (feature `gestures`); never in the default subscription.
        case gesture
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "began": self = .began
            case "moved": self = .moved
            case "ended": self = .ended
            case "cancelled": self = .cancelled
            case "deviceAdded": self = .deviceAdded
            case "deviceRemoved": self = .deviceRemoved
            case "hover": self = .hover
            case "gesture": self = .gesture
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .began: "began"
            case .moved: "moved"
            case .ended: "ended"
            case .cancelled: "cancelled"
            case .deviceAdded: "deviceAdded"
            case .deviceRemoved: "deviceRemoved"
            case .hover: "hover"
            case .gesture: "gesture"
            case .unknown(let name): name
            }
        }
    }

    /// The request as one line, without the newline.
    public func line() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    private enum CodingKeys: String, CodingKey { case id, request, devices, events, resumeAfter, limit, cursor }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(RequestID.self, forKey: .id)
        let name = try c.decode(String.self, forKey: .request)
        let devices = try c.decodeIfPresent([UInt32].self, forKey: .devices)
        switch name {
        case "subscribe":
            command = .subscribe(
                devices: devices, events: try c.decodeIfPresent([StreamType].self, forKey: .events),
                resumeAfter: try c.decodeIfPresent(UInt64.self, forKey: .resumeAfter))
        case "unsubscribe": command = .unsubscribe
        case "devices": command = .devices
        case "live": command = .live(devices: devices)
        case "history":
            command = .history(
                limit: try c.decodeIfPresent(Int.self, forKey: .limit), devices: devices,
                cursor: try c.decodeIfPresent(String.self, forKey: .cursor))
        case "ping": command = .ping
        case "stats": command = .stats
        default:
            throw DecodingError.dataCorruptedError(forKey: .request, in: c, debugDescription: "unknown request \(name)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encode(command.name, forKey: .request)
        switch command {
        case .subscribe(let devices, let events, let resumeAfter):
            try c.encodeIfPresent(devices, forKey: .devices)
            try c.encodeIfPresent(events, forKey: .events)
            try c.encodeIfPresent(resumeAfter, forKey: .resumeAfter)
        case .live(let devices):
            try c.encodeIfPresent(devices, forKey: .devices)
        case .history(let limit, let devices, let cursor):
            try c.encodeIfPresent(limit, forKey: .limit)
            try c.encodeIfPresent(devices, forKey: .devices)
            try c.encodeIfPresent(cursor, forKey: .cursor)
        case .unsubscribe, .devices, .ping, .stats: break
        }
    }
}
