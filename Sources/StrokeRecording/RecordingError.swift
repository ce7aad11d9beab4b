/// A recording that cannot be read, with where and why.
///
/// `description` reads like a compiler diagnostic: `file:line: what was expected, what was found`.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line, or nil when the problem is not tied to a line (an empty file).
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
