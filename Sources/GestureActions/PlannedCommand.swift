import StrokeProtocol

/// A command a rule decided to run for a gesture: what `--dry-run` prints and what is spawned.
public struct PlannedCommand: Sendable, Hashable {
    public var rule: String
    public var argv: [String]
    /// Added to the client's own environment (after removing its `STROKES_GESTURE_*`).
    public var environment: [Variable]

    public struct Variable: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(rule: GestureRule, gesture: GestureMessage, deviceName: String?) {
        self.rule = rule.name
        argv = rule.action.argv
        environment = GestureEnvironment.variables(for: gesture, deviceName: deviceName, rule: rule.name).map(Variable.init)
    }

    /// `environ` with the inherited `STROKES_GESTURE_*` removed and `environment` added.
    public func environment(inheriting inherited: [String]) -> [String] {
        inherited.filter { !$0.hasPrefix(GestureEnvironment.prefix) } + environment.map { "\($0.name)=\($0.value)" }
    }

    /// One JSON line (`--dry-run`): `{"rule":…,"argv":[…],"env":{…}}`, keys in that order, the
    /// variables in `environment`'s order.
    public var dryRunLine: String {
        var s = "{\"rule\":"
        JSONWriter.appendQuoted(rule, to: &s)
        s += ",\"argv\":" + Self.json(argv) + ",\"env\":{"
        for (i, v) in environment.enumerated() {
            if i > 0 { s += "," }
            JSONWriter.appendQuoted(v.name, to: &s)
            s += ":"
            JSONWriter.appendQuoted(v.value, to: &s)
        }
        s += "}}"
        return s
    }

    /// `strings` as a JSON array.
    public static func json(_ strings: [String]) -> String {
        var s = "["
        for (i, string) in strings.enumerated() {
            if i > 0 { s += "," }
            JSONWriter.appendQuoted(string, to: &s)
        }
        return s + "]"
    }
}
