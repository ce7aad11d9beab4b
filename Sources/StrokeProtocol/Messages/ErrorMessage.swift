/// An `error` line: a request failed (docs/protocol.md, "Errors"). The daemon's own side of it is
/// `ProtocolError`.
public struct ErrorMessage: Codable, Sendable, Hashable {
    /// The request's id; nil when it had none or could not be read (`null` on the wire).
    public var id: RequestID?
    public var error: Code
    /// For people; codes are the contract.
    public var message: String

    public init(id: RequestID?, error: Code, message: String) {
        self.id = id
        self.error = error
        self.message = message
    }

    public enum Code: OpenStringEnum {
        /// The line is not a JSON object.
        case invalidJSON
        /// `request` names no request the daemon knows.
        case unknownRequest
        /// A key has the wrong type or value (the message names it).
        case badArgument
        /// `unsubscribe` without a subscription.
        case notSubscribed
        /// The line exceeded `maxLineLength`; the daemon disconnects.
        case lineTooLong
        /// The peer is not in the allow-list; the daemon disconnects.
        case forbidden
        /// The daemon serves its most clients (or the uid's most); sent instead of `hello`.
        case tooManyClients
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "invalidJSON": self = .invalidJSON
            case "unknownRequest": self = .unknownRequest
            case "badArgument": self = .badArgument
            case "notSubscribed": self = .notSubscribed
            case "lineTooLong": self = .lineTooLong
            case "forbidden": self = .forbidden
            case "tooManyClients": self = .tooManyClients
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .invalidJSON: "invalidJSON"
            case .unknownRequest: "unknownRequest"
            case .badArgument: "badArgument"
            case .notSubscribed: "notSubscribed"
            case .lineTooLong: "lineTooLong"
            case .forbidden: "forbidden"
            case .tooManyClients: "tooManyClients"
            case .unknown(let name): name
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case type, id, error, message }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(RequestID.self, forKey: .id)
        error = try c.decode(Code.self, forKey: .error)
        message = try c.decode(String.self, forKey: .message)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("error", forKey: .type)
        if let id { try c.encode(id, forKey: .id) } else { try c.encodeNil(forKey: .id) }
        try c.encode(error, forKey: .error)
        try c.encode(message, forKey: .message)
    }
}
