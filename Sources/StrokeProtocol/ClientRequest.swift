// FoundationEssentials has JSONDecoder and Data without the rest of Foundation (and its ICU).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request from a client: one JSON object per line (docs/protocol.md, "Requests").
///
/// ```
/// {"id":1,"request":"subscribe","devices":[1],"events":["began","ended"],"resumeAfter":812}
/// ```
public struct ClientRequest: Hashable, Sendable {
    /// The client's id for the request, echoed in the reply: an integer or a string, as JSON text.
    public var id: String
    public var command: Command

    public enum Command: Hashable, Sendable {
        case subscribe(Subscription)
        case unsubscribe
        case devices
        /// Strokes in progress, with their points (optionally of some devices).
        case live(devices: Set<UInt32>?)
        /// Completed strokes, oldest first, at most `limit` (all the daemon keeps when nil), one
        /// page per reply; `cursor` (from the previous page's reply) continues a selection.
        case history(limit: Int?, devices: Set<UInt32>?, cursor: HistoryCursor?)
        case ping
        case stats
    }

    public struct Subscription: Hashable, Sendable {
        /// Only these devices; all when nil.
        public var devices: Set<UInt32>?
        /// Only these message types (`began`, `moved`, `ended`, `cancelled`, `deviceAdded`,
        /// `deviceRemoved`, `hover`, `gesture`); when nil, all but `hover` and `gesture`, which a client
        /// must ask for.
        public var events: Set<String>?
        /// Resume after this sequence number instead of starting from a snapshot.
        public var resumeAfter: UInt64?

        public init(devices: Set<UInt32>? = nil, events: Set<String>? = nil, resumeAfter: UInt64? = nil) {
            self.devices = devices
            self.events = events
            self.resumeAfter = resumeAfter
        }
    }

    public static let streamTypes: Set<String> = [
        "began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved", "hover", "gesture",
    ]

    /// The limits on what one request may ask for (docs/protocol.md, "Limits"); past them the
    /// request gets `badArgument`.
    public enum Limits {
        /// Entries in `devices`.
        public static let devices = 256
        /// Entries in `events`.
        public static let events = 16
        /// History `limit`.
        public static let historyLimit = 1_000_000
        /// Unicode scalars (code points) of a string `id` (it is echoed in the reply). Not
        /// `Character`s: one grapheme may hold any number of combining scalars.
        public static let idLength = 256
        /// Unicode scalars of input an error message quotes.
        public static let excerpt = 40
    }

    /// Where a paged `history` selection continues: the completion index of the next stroke and
    /// the end of the selection. On the wire an opaque string.
    public struct HistoryCursor: Hashable, Sendable, CustomStringConvertible {
        public var next: UInt64
        public var end: UInt64

        public init(next: UInt64, end: UInt64) {
            self.next = next
            self.end = end
        }

        public init?(_ text: String) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let next = UInt64(parts[0]), let end = UInt64(parts[1]), next <= end else { return nil }
            self.init(next: next, end: end)
        }

        public var description: String { "\(next)-\(end)" }
    }

    /// At most `Limits.excerpt` Unicode scalars of `text`, escaped as a JSON string (quotes
    /// included), with `…` when cut: what error messages quote of a client's input. Counted in
    /// scalars, not `Character`s, so a grapheme of thousands of combining marks is cut too.
    public static func excerpt<S: StringProtocol>(_ text: S) -> String {
        var out = ""
        let scalars = text.unicodeScalars
        let cut = scalars.prefix(Limits.excerpt + 1).count > Limits.excerpt
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars.prefix(Limits.excerpt))
        JSONWriter.appendQuoted(String(kept) + (cut ? "…" : ""), to: &out)
        return out
    }

    /// Parses one line (without its newline). Unknown keys are ignored.
    public static func parse(_ line: Substring) -> Result<ClientRequest, ProtocolError> {
        let wire: Wire
        let notAnObject = ProtocolError(.invalidJSON, "a request is one JSON object per line, not \(excerpt(line))", id: nil)
        switch JSONSyntax.check(line.utf8, objectOnly: true) {
        case nil: break
        case .tooDeep:
            return .failure(ProtocolError(.invalidJSON, "a request nests at most \(JSONSyntax.depthLimit) arrays and objects deep", id: nil))
        case .invalid: return .failure(notAnObject)
        }
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(line.utf8))
        } catch let error as WireError {
            return .failure(ProtocolError(.badArgument, error.message, id: error.id))
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let key = context.codingPath.first?.stringValue ?? "request"
            return .failure(ProtocolError(.badArgument, "'\(key)' has the wrong type (docs/protocol.md, \"Requests\")", id: nil))
        } catch {
            return .failure(notAnObject)
        }
        let id = wire.id ?? "null"
        func fail(_ message: String) -> Result<ClientRequest, ProtocolError> {
            .failure(ProtocolError(.badArgument, message, id: id))
        }
        guard let name = wire.request else { return fail("missing 'request' (a string)") }
        if let d = wire.devices, d.count > Limits.devices { return fail("'devices' lists at most \(Limits.devices) ids") }
        if let e = wire.events, e.count > Limits.events { return fail("'events' lists at most \(Limits.events) names") }
        let devices = wire.devices.map(Set.init)
        switch name {
        case "subscribe":
            if let events = wire.events, !Set(events).isSubset(of: streamTypes) {
                return fail("'events' must be an array of: " + streamTypes.sorted().joined(separator: ", "))
            }
            let sub = Subscription(devices: devices, events: wire.events.map(Set.init), resumeAfter: wire.resumeAfter)
            return .success(ClientRequest(id: id, command: .subscribe(sub)))
        case "unsubscribe": return .success(ClientRequest(id: id, command: .unsubscribe))
        case "devices": return .success(ClientRequest(id: id, command: .devices))
        case "live": return .success(ClientRequest(id: id, command: .live(devices: devices)))
        case "history":
            if let limit = wire.limit, limit < 0 || limit > Limits.historyLimit {
                return fail("'limit' must be between 0 and \(Limits.historyLimit)")
            }
            var cursor: HistoryCursor?
            if let text = wire.cursor {
                guard let c = HistoryCursor(text) else { return fail("'cursor' must be a cursor from a history reply") }
                cursor = c
            }
            return .success(ClientRequest(id: id, command: .history(limit: wire.limit, devices: devices, cursor: cursor)))
        case "ping": return .success(ClientRequest(id: id, command: .ping))
        case "stats": return .success(ClientRequest(id: id, command: .stats))
        default:
            return .failure(ProtocolError(.unknownRequest, "unknown request \(excerpt(name))", id: id))
        }
    }

    private struct WireError: Error {
        var message: String
        var id: String?
    }

    /// The request object as sent; strict about the types of the keys it knows.
    private struct Wire: Decodable {
        var id: String?
        var request: String?
        var devices: [UInt32]?
        var events: [String]?
        var resumeAfter: UInt64?
        var limit: Int?
        var cursor: String?

        enum CodingKeys: String, CodingKey { case id, request, devices, events, resumeAfter, limit, cursor }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if c.contains(.id), try !c.decodeNil(forKey: .id) {
                if let n = try? c.decode(Int64.self, forKey: .id) {
                    id = String(n)
                } else if let s = try? c.decode(String.self, forKey: .id) {
                    guard s.unicodeScalars.count <= Limits.idLength else {
                        throw WireError(message: "'id' is at most \(Limits.idLength) characters", id: nil)
                    }
                    var quoted = ""
                    JSONWriter.appendQuoted(s, to: &quoted)
                    id = quoted
                } else {
                    throw WireError(message: "'id' must be an integer or a string", id: nil)
                }
            }
            // Once the id is known, every error carries it (docs/protocol.md: an error names the
            // request's id unless the id itself could not be read), and names the key.
            let knownID = id
            func field<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
                do {
                    return try c.decodeIfPresent(type, forKey: key)
                } catch {
                    throw WireError(
                        message: "'\(key.rawValue)' has the wrong type or a value out of range (docs/protocol.md, \"Requests\")",
                        id: knownID)
                }
            }
            request = try field(String.self, .request)
            // Decoded wide and range-checked here, to say which key was wrong.
            if let ids = try field([Int64].self, .devices) {
                guard ids.allSatisfy({ UInt32(exactly: $0) != nil }) else {
                    throw WireError(message: "'devices' must be an array of device ids", id: id)
                }
                devices = ids.map { UInt32($0) }
            }
            events = try field([String].self, .events)
            if let after = try field(Int64.self, .resumeAfter) {
                guard after >= 0 else { throw WireError(message: "'resumeAfter' must be a sequence number", id: id) }
                resumeAfter = UInt64(after)
            }
            limit = try field(Int.self, .limit)
            cursor = try field(String.self, .cursor)
        }
    }
}
