/// Why a text is not YAML this reader takes: where, and what was expected or is not supported.
/// The message names the problem in a few words and quotes no control characters.
public struct YAMLError: Error, Equatable, Sendable, CustomStringConvertible {
    public var mark: YAMLMark
    public var message: String

    public init(_ message: String, at mark: YAMLMark) {
        self.mark = mark
        self.message = message
    }

    /// The 1-based line of the problem.
    public var line: Int { mark.line }

    public var description: String { "\(mark.line):\(mark.column): \(message)" }
}
