/// An error reply (docs/protocol.md, "Errors"): `{"type":"error","id":…,"error":"<code>","message":"…"}`.
/// Codes are stable and part of the protocol; messages are for people.
public struct ProtocolError: Error, Hashable, Sendable {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The line is not a JSON object.
        public static let invalidJSON = Code(rawValue: "invalidJSON")
        /// The `request` is not one the daemon knows.
        public static let unknownRequest = Code(rawValue: "unknownRequest")
        /// A key has the wrong type or value.
        public static let badArgument = Code(rawValue: "badArgument")
        /// The line exceeds the maximum line length; the daemon disconnects after this error.
        public static let lineTooLong = Code(rawValue: "lineTooLong")
        /// `unsubscribe` without a subscription.
        public static let notSubscribed = Code(rawValue: "notSubscribed")
        /// The peer's uid and gid are not in the daemon's allow-list; the daemon disconnects.
        public static let forbidden = Code(rawValue: "forbidden")
        /// The daemon serves its most clients (`maxClients`), or the peer's uid its most
        /// (`maxClientsPerUid`); the daemon disconnects.
        public static let tooManyClients = Code(rawValue: "tooManyClients")
    }

    public var code: Code
    public var message: String
    /// The request's id as JSON text (`null` when the request had none or could not be read).
    public var id: String?

    public init(_ code: Code, _ message: String, id: String?) {
        self.code = code
        self.message = message
        self.id = id
    }

    /// The error as one protocol line, without the newline.
    public var json: String {
        var w = JSONWriter()
        w.field("type", "error")
        w.raw("id", id ?? "null")
        w.field("error", code.rawValue)
        w.field("message", message)
        return w.finish()
    }
}
