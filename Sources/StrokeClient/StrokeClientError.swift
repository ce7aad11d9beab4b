import StrokeProtocol

/// What `StrokeClient` throws. `code` says what kind of failure it is; new codes may be added, so
/// compare with `==` rather than switching exhaustively.
public struct StrokeClientError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable { case connectionLost, protocolError, daemonError }
        private let value: Value

        /// The connection closed or could not be made (and, when reconnecting, could no longer be).
        public static let connectionLost = Code(value: .connectionLost)
        /// The peer sent something that is not the strokes protocol: not JSON, a key of the wrong
        /// type, a line longer than the client accepts, no `hello`. Never retried.
        public static let protocolError = Code(value: .protocolError)
        /// The daemon answered with an `error` (``StrokeClientError/error`` holds it).
        public static let daemonError = Code(value: .daemonError)

        public var description: String {
            switch value {
            case .connectionLost: "connectionLost"
            case .protocolError: "protocolError"
            case .daemonError: "daemonError"
            }
        }
    }

    public var code: Code
    public var message: String
    /// The daemon's `error` message, for `daemonError`.
    public var error: ErrorMessage?

    public init(_ code: Code, _ message: String, error: ErrorMessage? = nil) {
        self.code = code
        self.message = message
        self.error = error
    }

    public var description: String { "\(code): \(message)" }
}
