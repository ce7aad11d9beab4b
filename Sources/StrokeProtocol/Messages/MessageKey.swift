/// The keys of protocol objects: any string, so a message's own keys and the `type` read to
/// dispatch on share one container type.
struct MessageKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init(stringLiteral name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    static let type: MessageKey = "type"
}

extension KeyedDecodingContainer where Key == MessageKey {
    /// The message's `type`.
    func messageType() throws -> String { try decode(String.self, forKey: .type) }
}
