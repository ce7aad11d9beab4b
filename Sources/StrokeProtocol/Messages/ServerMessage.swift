// FoundationEssentials has JSONDecoder and Data without the rest of Foundation (and its ICU).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Any line the daemon sends (and what `strokes replay` prints), by its `type`
/// (docs/protocol.md). Keys a type does not know are ignored; a `type` this client does not know
/// decodes as `unknown`, kept whole, so a newer daemon's additions pass through (the protocol's
/// compatibility rules).
///
/// ```
/// switch try ServerMessage(line: line) {
/// case .stroke(let e) where e.kind == .began: …
/// case .unknown: break  // a newer daemon's message
/// …
/// }
/// ```
public enum ServerMessage: Codable, Sendable, Hashable {
    case hello(Hello)
    case reply(Reply)
    case error(ErrorMessage)
    case snapshot(Snapshot)
    /// `began`, `moved`, `ended`, `cancelled`.
    case stroke(StrokeMessage)
    case hover(HoverMessage)
    /// Only to clients that ask for `gesture` (feature `gestures`).
    case gesture(GestureMessage)
    case deviceAdded(DeviceAdded)
    case deviceRemoved(DeviceRemoved)
    case goodbye(Goodbye)
    /// `strokes replay` only.
    case replayEnded(ReplayEnded)
    /// A message of a `type` this client does not know: the type and the whole object.
    case unknown(type: String, raw: JSONValue)

    /// Decodes one line (with or without its newline).
    ///
    /// - Throws: `DecodingError`, also for a line that is not strict JSON (`JSONSyntax`).
    public init(line: some StringProtocol) throws {
        self = try ServerMessage.decode(Data(line.utf8))
    }

    /// Decodes one line's bytes; a line that is not strict JSON, or is nested deeper than
    /// `JSONSyntax.depthLimit`, is refused before `JSONDecoder` sees it (it traps past 512 levels).
    public static func decode(_ bytes: Data) throws -> ServerMessage {
        if let problem = JSONSyntax.check(bytes) {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON: \(problem)"))
        }
        return try JSONDecoder().decode(ServerMessage.self, from: bytes)
    }

    /// The `type` on the wire.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .reply: "reply"
        case .error: "error"
        case .snapshot: "snapshot"
        case .stroke(let e): e.kind.rawValue
        case .hover: "hover"
        case .gesture: "gesture"
        case .deviceAdded: "deviceAdded"
        case .deviceRemoved: "deviceRemoved"
        case .goodbye: "goodbye"
        case .replayEnded: "replayEnded"
        case .unknown(let type, _): type
        }
    }

    /// The sequence number of a stream message (what `resumeAfter` takes); nil for everything else.
    public var seq: UInt64? {
        switch self {
        case .stroke(let e): e.seq
        case .deviceAdded(let d): d.seq
        case .deviceRemoved(let d): d.seq
        case .hello, .reply, .error, .snapshot, .hover, .gesture, .goodbye, .replayEnded, .unknown: nil
        }
    }

    public init(from decoder: Decoder) throws {
        let type = try decoder.container(keyedBy: MessageKey.self).messageType()
        switch type {
        case "hello": self = .hello(try Hello(from: decoder))
        case "reply": self = .reply(try Reply(from: decoder))
        case "error": self = .error(try ErrorMessage(from: decoder))
        case "snapshot": self = .snapshot(try Snapshot(from: decoder))
        case "began", "moved", "ended", "cancelled": self = .stroke(try StrokeMessage(from: decoder))
        case "hover": self = .hover(try HoverMessage(from: decoder))
        case "gesture": self = .gesture(try GestureMessage(from: decoder))
        case "deviceAdded": self = .deviceAdded(try DeviceAdded(from: decoder))
        case "deviceRemoved": self = .deviceRemoved(try DeviceRemoved(from: decoder))
        case "goodbye": self = .goodbye(try Goodbye(from: decoder))
        case "replayEnded": self = .replayEnded(try ReplayEnded(from: decoder))
        default: self = .unknown(type: type, raw: try JSONValue(from: decoder))
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .hello(let m): try m.encode(to: encoder)
        case .reply(let m): try m.encode(to: encoder)
        case .error(let m): try m.encode(to: encoder)
        case .snapshot(let m): try m.encode(to: encoder)
        case .stroke(let m): try m.encode(to: encoder)
        case .hover(let m): try m.encode(to: encoder)
        case .gesture(let m): try m.encode(to: encoder)
        case .deviceAdded(let m): try m.encode(to: encoder)
        case .deviceRemoved(let m): try m.encode(to: encoder)
        case .goodbye(let m): try m.encode(to: encoder)
        case .replayEnded(let m): try m.encode(to: encoder)
        case .unknown(_, let raw): try raw.encode(to: encoder)
        }
    }
}
