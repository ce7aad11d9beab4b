import StrokeProtocol
import YAMLReader

// The one file that knows the YAML reader: it walks the parsed tree into the typed
// configuration. Everything it calls beyond `Reader` is YAML-free.

extension GestureActionConfiguration {
    /// Parses a configuration file's text (docs/gestures.md, "Acting on gestures";
    /// config/gestures.yaml); `file` names it in errors. Unknown keys, values of the wrong type or
    /// range, and keys that do not apply to the rule's kind are errors with the line they are on.
    public static func parse(_ text: String, file: String) throws(GestureActionConfigurationError) -> GestureActionConfiguration {
        let r = Reader(file: file)
        let root: YAMLNode?
        do throws(YAMLError) {
            root = try YAML.parse(text)
        } catch {
            throw GestureActionConfigurationError(file: file, line: error.line, message: "invalid YAML: \(error.message)")
        }
        var config = GestureActionConfiguration()
        guard let root else { return config }
        let top = try r.mapping(root, "the configuration")
        config.limit = try r.limit(top, default: GestureActionConfiguration.defaultLimit)
        for (key, entry) in top {
            switch key {
            case "rules":
                config.rules = try r.list(entry.value, "rules").enumerated().map { (i, node) throws(GestureActionConfigurationError) in
                    try r.rule(node, number: i + 1)
                }
            case "maxRunning": config.maxRunning = try r.int(entry.value, "maxRunning", 1...1024)
            case "every", "maxPerSecond": break
            default: throw r.error(entry.key, "unknown key '\(key)' (top level: rules, every, maxPerSecond, maxRunning)")
            }
        }
        return config
    }
}

private struct Reader {
    let file: String

    func error(_ node: YAMLNode?, _ message: String) -> GestureActionConfigurationError {
        GestureActionConfigurationError(file: file, line: node?.mark.line, message: message)
    }

    func mapping(_ node: YAMLNode, _ what: String) throws(GestureActionConfigurationError) -> [(String, (key: YAMLNode, value: YAMLNode))] {
        guard case .mapping(let m) = node else { throw error(node, "\(what) must be a mapping (key: value)") }
        var entries: [(String, (key: YAMLNode, value: YAMLNode))] = []
        for pair in m {
            guard case .scalar(let k) = pair.key else { throw error(pair.key, "the keys of \(what) must be names") }
            if entries.contains(where: { $0.0 == k.string }) { throw error(pair.key, "duplicate key '\(k.string)'") }
            entries.append((k.string, (pair.key, pair.value)))
        }
        return entries
    }

    func list(_ node: YAMLNode, _ what: String) throws(GestureActionConfigurationError) -> [YAMLNode] {
        guard case .sequence(let s) = node else { throw error(node, "'\(what)' must be a list") }
        return Array(s)
    }

    /// A scalar's text (a name, a number, a string).
    func scalar(_ node: YAMLNode, _ what: String) throws(GestureActionConfigurationError) -> String {
        guard case .scalar(let s) = node else { throw error(node, "'\(what)' must be a single value, not a list or mapping") }
        return s.string
    }

    /// One value or a list of them.
    func oneOrMany(_ node: YAMLNode, _ what: String) throws(GestureActionConfigurationError) -> [YAMLNode] {
        if case .sequence(let s) = node {
            guard !s.isEmpty else { throw error(node, "'\(what)' must not be an empty list") }
            return Array(s)
        }
        return [node]
    }

    /// A plain integer, read as the daemon's configuration reads one: a quoted `"3"` is a string
    /// (the two readers agreed on the YAML but not on that).
    func int(_ node: YAMLNode, _ what: String, _ range: ClosedRange<Int>) throws(GestureActionConfigurationError) -> Int {
        _ = try scalar(node, what)
        guard let i = node.int, range.contains(i) else {
            throw error(node, "'\(what)' must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return i
    }

    func double(_ node: YAMLNode, _ what: String) throws(GestureActionConfigurationError) -> Double {
        _ = try scalar(node, what)
        guard let d = node.double ?? node.int.map(Double.init), d.isFinite else { throw error(node, "'\(what)' must be a number") }
        return d
    }

    func duration(_ node: YAMLNode, _ what: String) throws(GestureActionConfigurationError) -> Int64 {
        guard let us = GestureRateLimit.microseconds(text: try scalar(node, what)) else {
            throw error(node, "'\(what)' must be a duration with its unit, such as 500ms or 1.5s")
        }
        return us
    }

    func name<T: OpenStringEnum>(_ node: YAMLNode, _ what: String, in known: [T]) throws(GestureActionConfigurationError) -> T {
        let text = try scalar(node, what)
        guard let value = GestureMatch.named(text, in: known) else {
            throw error(node, "unknown \(what) '\(text)' (one of \(GestureMatch.names(known)))")
        }
        return value
    }

    /// `every` or `maxPerSecond` among `entries`, else `fallback`.
    func limit(_ entries: [(String, (key: YAMLNode, value: YAMLNode))], default fallback: GestureRateLimit?) throws(GestureActionConfigurationError)
        -> GestureRateLimit?
    {
        let every = entries.first { $0.0 == "every" }?.1
        let perSecond = entries.first { $0.0 == "maxPerSecond" }?.1
        switch (every, perSecond) {
        case (nil, nil): return fallback
        case (let every?, nil): return .every(microseconds: try duration(every.value, "every"))
        case (nil, let perSecond?): return .perSecond(try int(perSecond.value, "maxPerSecond", 1...1000))
        case (_?, let perSecond?): throw error(perSecond.key, "give 'every' or 'maxPerSecond', not both")
        }
    }

    func rule(_ node: YAMLNode, number: Int) throws(GestureActionConfigurationError) -> GestureRule {
        let entries = try mapping(node, "a rule")
        guard let kindEntry = entries.first(where: { $0.0 == "kind" })?.1 else {
            throw error(node, "rule \(number) needs 'kind' (\(GestureMatch.names(GestureMatch.kinds)))")
        }
        let kind = try name(kindEntry.value, "kind", in: GestureMatch.kinds)
        var match = GestureMatch(kind: kind)
        var ruleName = "rule \(number)"
        var action: GestureAction?
        for (key, entry) in entries {
            if let kinds = GestureMatch.kinds(for: key), !kinds.contains(kind) {
                throw error(entry.key, "'\(key)' applies to \(kinds.map(\.rawValue).joined(separator: " and ")), not \(kind.rawValue)")
            }
            let value = entry.value
            switch key {
            case "kind", "every", "maxPerSecond": break
            case "name":
                ruleName = try scalar(value, "name")
                guard !ruleName.isEmpty else { throw error(value, "'name' must not be empty") }
            case "phase":
                let phase = try name(value, "phase", in: GestureMatch.phases)
                if let problem = GestureMatch.phaseProblem(phase, for: kind) { throw error(value, problem) }
                match.phase = phase
            case "fingers":
                match.fingers = Set(try oneOrMany(value, "fingers").map { (n) throws(GestureActionConfigurationError) in try int(n, "fingers", 1...20) })
            case "direction":
                match.directions = Set(try oneOrMany(value, "direction").map { (n) throws(GestureActionConfigurationError) in
                    try name(n, "direction", in: GestureMatch.allDirections)
                })
            case "edge":
                match.edges = Set(try oneOrMany(value, "edge").map { (n) throws(GestureActionConfigurationError) in
                    try name(n, "edge", in: GestureMatch.allEdges)
                })
            case "device":
                match.devices = try oneOrMany(value, "device").map { (n) throws(GestureActionConfigurationError) in try device(n) }
            case "minScale": match.minScale = try double(value, key)
            case "maxScale": match.maxScale = try double(value, key)
            case "minAngle": match.minAngle = try double(value, key)
            case "maxAngle": match.maxAngle = try double(value, key)
            case "minDistance": match.minDistance = try double(value, key)
            case "minVelocity": match.minVelocity = try double(value, key)
            case "minDuration": match.minDuration = try duration(value, key)
            case "maxDuration": match.maxDuration = try duration(value, key)
            case "run":
                guard action == nil else { throw error(entry.key, "give 'run' or 'shell', not both") }
                guard case .sequence = value else {
                    throw error(value, "'run' must be a list of arguments, such as [wtype, -k, Left] (for a shell command line, use 'shell')")
                }
                let argv = try list(value, "run").map { (n) throws(GestureActionConfigurationError) in try scalar(n, "run") }
                guard let first = argv.first, !first.isEmpty else { throw error(value, "'run' needs a program to run first") }
                // An argument ends at its first NUL on its way to the program: "a\0; b" would run
                // as "a" while --check listed it whole.
                guard !argv.contains(where: { $0.utf8.contains(0) }) else { throw error(value, "'run' arguments cannot hold a NUL character") }
                action = .run(argv)
            case "shell":
                guard action == nil else { throw error(entry.key, "give 'run' or 'shell', not both") }
                let line = try scalar(value, "shell")
                guard !line.isEmpty else { throw error(value, "'shell' must not be empty") }
                guard !line.utf8.contains(0) else { throw error(value, "'shell' cannot hold a NUL character") }
                action = .shell(line)
            default:
                throw error(entry.key, "unknown key '\(key)' in a rule (config/gestures.yaml lists every key)")
            }
        }
        guard let action else {
            throw error(node, "\(ruleName) needs 'run' (a program and its arguments) or 'shell' (a command line for /bin/sh -c)")
        }
        return GestureRule(
            name: ruleName, line: node.mark.line, match: match, action: action, limit: try limit(entries, default: nil))
    }

    /// A device's id (a plain integer) or name (anything else, quoted digits included).
    func device(_ node: YAMLNode) throws(GestureActionConfigurationError) -> GestureMatch.DeviceSelector {
        let text = try scalar(node, "device")
        if case .scalar(let s) = node, s.style == .plain, let id = UInt32(text) { return .id(id) }
        guard !text.isEmpty else { throw error(node, "'device' must be a device id or name") }
        return .name(text)
    }
}
