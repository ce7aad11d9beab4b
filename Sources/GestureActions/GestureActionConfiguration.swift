import StrokeProtocol

/// What `strokes gestures` does with the daemon's gestures (docs/gestures.md, "Acting on
/// gestures"): rules, in the order of the file, each a match and a command. The first rule that
/// matches a gesture is the one that acts on it; the rest are not looked at.
public struct GestureActionConfiguration: Sendable, Hashable {
    public var rules: [GestureRule]
    /// At most this often for all rules together (nil: no limit). Default: 10 a second.
    public var limit: GestureRateLimit?
    /// Commands still running at once, at most; a gesture that would start one more is skipped.
    public var maxRunning: Int

    public static let defaultLimit = GestureRateLimit.perSecond(10)
    public static let defaultMaxRunning = 16

    public init(rules: [GestureRule] = [], limit: GestureRateLimit? = defaultLimit, maxRunning: Int = defaultMaxRunning) {
        self.rules = rules
        self.limit = limit
        self.maxRunning = maxRunning
    }
}

/// One rule: which gestures, what to run, how often at most.
public struct GestureRule: Sendable, Hashable {
    /// For logs and `STROKES_GESTURE_RULE`: the rule's `name`, else `rule N` (1-based).
    public var name: String
    /// The line of the file where the rule starts (nil when unknown).
    public var line: Int?
    public var match: GestureMatch
    public var action: GestureAction
    public var limit: GestureRateLimit?

    public init(name: String, line: Int? = nil, match: GestureMatch, action: GestureAction, limit: GestureRateLimit? = nil) {
        self.name = name
        self.line = line
        self.match = match
        self.action = action
        self.limit = limit
    }
}

/// What a rule runs.
public enum GestureAction: Sendable, Hashable {
    /// An argument vector, run as it is: the first element is looked up in `PATH`, nothing is
    /// expanded, no shell is involved.
    case run([String])
    /// A command line for `/bin/sh -c`, only when the configuration asks for it with `shell:`.
    case shell(String)

    /// The argument vector to execute.
    public var argv: [String] {
        switch self {
        case .run(let argv): argv
        case .shell(let line): ["/bin/sh", "-c", line]
        }
    }
}
