/// The daemon's last line before it closes the connection (docs/protocol.md, "Session").
public struct Goodbye: Codable, Sendable, Hashable {
    public var reason: Reason

    public init(reason: Reason) { self.reason = reason }

    public enum Reason: OpenStringEnum {
        /// The daemon stops; every live stroke was `cancelled` (`shutdown`) first.
        case shutdown
        /// The client fell too far behind (docs/protocol.md, "Slow clients"); it may resume.
        case slowClient
        /// A request line exceeded `maxLineLength`.
        case lineTooLong
        /// The client shut down its sending side without subscribing.
        case clientClosed
        /// A configuration reload took the client off the allow-lists (an `error` `forbidden`
        /// came first); connecting again is refused the same way.
        case forbidden
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "shutdown": self = .shutdown
            case "slowClient": self = .slowClient
            case "lineTooLong": self = .lineTooLong
            case "clientClosed": self = .clientClosed
            case "forbidden": self = .forbidden
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .shutdown: "shutdown"
            case .slowClient: "slowClient"
            case .lineTooLong: "lineTooLong"
            case .clientClosed: "clientClosed"
            case .forbidden: "forbidden"
            case .unknown(let name): name
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case type, reason }

    public init(from decoder: Decoder) throws {
        reason = try decoder.container(keyedBy: CodingKeys.self).decode(Reason.self, forKey: .reason)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("goodbye", forKey: .type)
        try c.encode(reason, forKey: .reason)
    }
}
