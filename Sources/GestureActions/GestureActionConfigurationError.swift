/// A configuration file that cannot be used: the file, the line where it is known, and what is
/// wrong, printed as `file:line: message`.
public struct GestureActionConfigurationError: Error, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
