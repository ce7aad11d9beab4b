import GestureRecognizer
import NIOCore
import StrokeRecording
import StrokeTracker
import SystemSupport
import YAMLReader

#if canImport(Glibc)
import Glibc
#endif

/// A configuration error: the file, the line where known, and the key.
public struct ConfigurationError: Error, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String
    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
}

extension DaemonConfiguration {
    /// Reads a configuration file; unknown keys and values of the wrong type are errors naming the key.
    public static func load(path: String) throws -> DaemonConfiguration {
        let bytes: [UInt8]
        do throws(SettingsFile.Failure) {
            bytes = try SettingsFile.read(path, limit: maximumSize)
        } catch {
            throw ConfigurationError(file: path, line: nil, message: "\(error)")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), file: path)
    }

    /// The largest configuration file read (a few kilobytes is a large one).
    public static let maximumSize = 1 << 20

    public static func parse(_ text: String, file: String) throws -> DaemonConfiguration {
        let root: YAMLNode?
        do throws(YAMLError) {
            root = try YAML.parse(text)
        } catch {
            throw ConfigurationError(file: file, line: error.line, message: "invalid YAML: \(error.message)")
        }
        var config = DaemonConfiguration()
        guard let root else { return config }
        let r = ConfigReader(file: file)
        let top = try r.mapping(root, "the configuration")
        for (key, value) in top {
            switch key {
            case "socket":
                for (k, v) in try r.mapping(value, "socket") {
                    switch k {
                    case "path": config.socketPath = try r.socketPath(v, "socket.path")
                    case "mode":
                        let s = try r.string(v, "socket.mode")
                        guard let mode = mode_t(s, radix: 8), mode <= 0o777 else {
                            throw r.error(v, "socket.mode must be an octal mode such as \"0660\"")
                        }
                        config.socketMode = mode
                    case "group":
                        // Set here, it must work (docs/security.md): checked now, with its line,
                        // rather than when the socket is bound.
                        let group = try r.string(v, "socket.group")
                        guard !group.isEmpty, group != "~", group != "null" else {
                            throw r.error(v, "'socket.group' must name a group (leave it out to keep the daemon's own)")
                        }
                        guard OwnedUnixSocket.resolveGroup(group) != nil else {
                            throw r.error(v, "'socket.group': no group '\(group)' on this system")
                        }
                        config.socketGroupConfigured = true
                        config.socketGroup = group
                    case "allowUids": config.allowUIDs = Set(try r.list(v, "socket.allowUids").map { try r.uint32($0, "socket.allowUids") })
                    case "allowGids": config.allowGIDs = Set(try r.list(v, "socket.allowGids").map { try r.uint32($0, "socket.allowGids") })
                    default: throw r.unknown(v, "socket.\(k)")
                    }
                }
            case "devices":
                for (k, v) in try r.mapping(value, "devices") {
                    switch k {
                    case "match": config.devices = try r.list(v, "devices.match").map { try r.selector($0, "devices.match") }
                    case "grab": config.grab = try r.bool(v, "devices.grab")
                    case "replay": config.replay = try r.string(v, "devices.replay")
                    case "loop": config.replayLoop = try r.bool(v, "devices.loop")
                    case "speed":
                        let speed = try r.double(v, "devices.speed")
                        guard DaemonConfiguration.replaySpeeds.contains(speed) else {
                            throw r.error(v, "'devices.speed' must be from 0 (as fast as possible) to \(Int(DaemonConfiguration.replaySpeeds.upperBound))")
                        }
                        config.replaySpeed = speed
                    default: throw r.unknown(v, "devices.\(k)")
                    }
                }
            case "queue":
                for (k, v) in try r.mapping(value, "queue") {
                    switch k {
                    case "mergeAfter": config.queue.mergeAfter = try r.int(v, "queue.mergeAfter", min: 1)
                    case "disconnectAfter": config.queue.disconnectAfter = try r.int(v, "queue.disconnectAfter", min: 1)
                    case "disconnectAfterBytes":
                        config.queue.disconnectAfterBytes = try r.int(v, "queue.disconnectAfterBytes", min: 65536)
                    case "totalBytes": config.queue.totalBytes = try r.int(v, "queue.totalBytes", min: 65536)
                    case "disconnectAfterSeconds":
                        let seconds = try r.double(v, "queue.disconnectAfterSeconds")
                        guard seconds >= 0.1, seconds <= 86400 else {
                            throw r.error(v, "'queue.disconnectAfterSeconds' must be between 0.1 and 86400")
                        }
                        config.queue.disconnectAfterStall = .nanoseconds(Int64(seconds * 1e9))
                    default: throw r.unknown(v, "queue.\(k)")
                    }
                }
                if config.queue.disconnectAfter < config.queue.mergeAfter {
                    throw r.error(value, "queue.disconnectAfter must be at least queue.mergeAfter")
                }
            case "history": config.history = try r.int(value, "history", min: 0)
            case "resume": config.resume = try r.int(value, "resume", min: 0)
            case "maxLineLength": config.maxLineLength = try r.int(
                value, "maxLineLength", min: 256, max: DaemonConfiguration.maxLineLengthLimit)
            case "historyPageBytes": config.historyPageBytes = try r.int(value, "historyPageBytes", min: 4096)
            case "requests":
                for (k, v) in try r.mapping(value, "requests") {
                    switch k {
                    case "burstBytes":
                        config.requestBurstBytes = try r.int(v, "requests.burstBytes", min: 65536, max: 1 << 30)
                    case "bytesPerSecond":
                        config.requestBytesPerSecond = try r.int(v, "requests.bytesPerSecond", min: 4096, max: 1 << 29)
                    default: throw r.unknown(v, "requests.\(k)")
                    }
                }
            case "maxClients": config.maxClients = try r.int(value, "maxClients", min: 1)
            case "maxClientsPerUid": config.maxClientsPerUid = try r.int(value, "maxClientsPerUid", min: 1)
            case "calibration":
                config.calibrations = try r.list(value, "calibration").map { try r.calibration($0) }
            case "touchJumps":
                config.touchJumps = try r.list(value, "touchJumps").map { try r.jumps($0) }
            case "gestures":
                let fields = try r.mapping(value, "gestures")
                for (k, v) in fields where k != "devices" { try r.gesture(k, v, into: &config.gestures, prefix: "gestures") }
                try r.checkGestures(config.gestures, value)
                for (k, v) in fields where k == "devices" {
                    config.gestureOverrides = try r.list(v, "gestures.devices").map { entry in
                        var match: String?
                        var c = config.gestures
                        for (k, v) in try r.mapping(entry, "gestures.devices[]") {
                            if k == "match" { match = try r.selector(v, "gestures.devices.match", ids: true) } else {
                                try r.gesture(k, v, into: &c, prefix: "gestures.devices")
                            }
                        }
                        guard let match else { throw r.error(entry, "a 'gestures.devices' entry needs 'match'") }
                        try r.checkGestures(c, entry)
                        return .init(match: match, configuration: c)
                    }
                }
            case "noTouchArbitration":
                config.noTouchArbitration = try r.list(value, "noTouchArbitration").map { try r.selector($0, "noTouchArbitration[]") }
            case "http": config.http = try r.http(value, tokenLine: &config.httpTokenLine)
            default: throw r.unknown(value, key)
            }
        }
        return config
    }
}

private struct ConfigReader {
    let file: String

    func error(_ node: YAMLNode?, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: node?.mark.line, message: message)
    }

    func unknown(_ node: YAMLNode, _ key: String) -> ConfigurationError {
        error(node, "unknown key '\(key)' (config/strokes.yaml lists every key)")
    }

    func mapping(_ node: YAMLNode, _ key: String) throws -> [(String, YAMLNode)] {
        guard case .mapping(let m) = node else { throw error(node, "'\(key)' must be a mapping") }
        return try m.map { pair in
            guard case .scalar(let k) = pair.key else { throw error(pair.key, "keys of '\(key)' must be names") }
            return (k.string, pair.value)
        }
    }

    func list(_ node: YAMLNode, _ key: String) throws -> [YAMLNode] {
        guard case .sequence(let s) = node else { throw error(node, "'\(key)' must be a list") }
        return Array(s)
    }

    func string(_ node: YAMLNode, _ key: String) throws -> String {
        guard case .scalar(let s) = node else { throw error(node, "'\(key)' must be a string") }
        return s.string
    }

    /// What a `DeviceSelector` can match: `name:GLOB` (a glob that is not empty), an absolute path
    /// (a node, or a link to one), a served recording's `replay:FILE`, and with `ids`, `id:VVVV:PPPP`
    /// (hex). Anything else would match no device, silently.
    func selector(_ node: YAMLNode, _ key: String, ids: Bool = false) throws -> String {
        let text = try string(node, key)
        func rest(_ prefix: String) -> Substring? { text.hasPrefix(prefix) ? text.dropFirst(prefix.count) : nil }
        if text.hasPrefix("/") { return text }
        if let glob = rest("name:"), !glob.isEmpty { return text }
        if let file = rest("replay:"), !file.isEmpty { return text }
        if ids, let pair = rest("id:") {
            let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, parts.allSatisfy({ (1...4).contains($0.count) && UInt16($0, radix: 16) != nil }) { return text }
        }
        let forms = "name:GLOB, an absolute path (/dev/input/event3, /dev/input/by-id/...)" + (ids ? ", id:VVVV:PPPP (hex)" : "") + " or replay:FILE"
        throw error(node, "'\(key)' must be \(forms), not \(text.debugDescription)")
    }

    /// A path a Unix socket can be bound at: a file name (not empty, no trailing `/`) that fits
    /// in `sockaddr_un`.
    func socketPath(_ node: YAMLNode, _ key: String) throws -> String {
        let path = try string(node, key)
        guard !path.isEmpty, !path.hasSuffix("/") else { throw error(node, "'\(key)' must name a file (it is empty, or ends with '/')") }
        guard path.utf8.count <= UnixSocketAddress.maxPathLength else {
            throw error(node, "'\(key)' is \(path.utf8.count) bytes long; a Unix socket path holds at most \(UnixSocketAddress.maxPathLength)")
        }
        return path
    }

    func bool(_ node: YAMLNode, _ key: String) throws -> Bool {
        guard let b = node.bool else { throw error(node, "'\(key)' must be true or false") }
        return b
    }

    func int(_ node: YAMLNode, _ key: String, min: Int) throws -> Int {
        guard let i = node.int, i >= min else { throw error(node, "'\(key)' must be an integer ≥ \(min)") }
        return i
    }

    func int(_ node: YAMLNode, _ key: String, min: Int, max: Int) throws -> Int {
        guard let i = node.int, i >= min, i <= max else {
            throw error(node, "'\(key)' must be an integer from \(min) to \(max)")
        }
        return i
    }

    func uint32(_ node: YAMLNode, _ key: String) throws -> UInt32 {
        guard let i = node.int, let u = UInt32(exactly: i) else { throw error(node, "'\(key)' must hold ids (integers ≥ 0)") }
        return u
    }

    func double(_ node: YAMLNode, _ key: String) throws -> Double {
        // .nan and .inf are YAML floats, but no setting means them.
        guard let d = node.double ?? node.int.map(Double.init), d.isFinite else { throw error(node, "'\(key)' must be a finite number") }
        return d
    }

    /// One key of `gestures` (or of an override): lengths in millimetres (`…Normalized`: the
    /// fallback without a resolution, in normalised units), times in milliseconds.
    func gesture(_ k: String, _ v: YAMLNode, into c: inout GestureConfiguration, prefix: String) throws {
        let key = "\(prefix).\(k)"
        // Bounded before the conversion to microseconds, which traps past Int64 (and deadlines
        // computed from a time past a day's could overflow later).
        func ms(_ v: YAMLNode) throws -> Int64 {
            let d = try double(v, key)
            guard abs(d) <= 86_400_000 else { throw error(v, "'\(key)' must be at most 86400000 (milliseconds: a day)") }
            return Int64((d * 1000).rounded())
        }
        let lengths: [(String, WritableKeyPath<GestureConfiguration, GestureConfiguration.Length>)] = [
            ("touchSlop", \.touchSlop), ("doubleTapSlop", \.doubleTapSlop), ("swipeDistance", \.swipeDistance),
            ("swipeMinimumVelocity", \.swipeMinimumVelocity), ("spanSlop", \.spanSlop), ("minimumSpan", \.minimumSpan),
            ("edgeMargin", \.edgeMargin),
        ]
        for (name, path) in lengths {
            if k == name { return c[keyPath: path].mm = try double(v, key) }
            if k == name + "Normalized" { return c[keyPath: path].normalized = try double(v, key) }
        }
        switch k {
        case "enabled": c.enabled = try bool(v, key)
        case "holdTimeout": c.holdTimeout = try ms(v)
        case "doubleTapTimeout": c.doubleTapTimeout = try ms(v)
        case "doubleTapMinTime": c.doubleTapMinTime = try ms(v)
        case "velocityWindow": c.velocityWindow = try ms(v)
        case "settleTime": c.settleTime = try ms(v)
        case "directions": c.directions = try int(v, key, min: 4)
        case "rotateAngle": c.rotateAngle = try double(v, key)
        case "maxFingers": c.maxFingers = try int(v, key, min: 1)
        default: throw unknown(v, key)
        }
    }

    func checkGestures(_ c: GestureConfiguration, _ node: YAMLNode) throws {
        if let problem = c.problems.first { throw error(node, "gestures: \(problem)") }
    }

    /// `http:`: a mapping turns the listener on (`enabled: false` keeps it off), as does `true`.
    func http(_ node: YAMLNode, tokenLine: inout Int?) throws -> HTTPConfiguration? {
        if case .scalar = node { return try bool(node, "http") ? HTTPConfiguration() : nil }
        var http = HTTPConfiguration()
        var enabled = true
        for (k, v) in try mapping(node, "http") {
            switch k {
            case "enabled": enabled = try bool(v, "http.enabled")
            case "listen":
                guard let listen = HTTPConfiguration.Listen(try string(v, "http.listen")) else {
                    throw error(v, "'http.listen' must be HOST:PORT (127.0.0.1:7780, [::1]:7780) or an absolute Unix socket path")
                }
                if case .unix = listen { _ = try socketPath(v, "http.listen") }
                http.listen = listen
            case "token":
                http.tokenFile = try string(v, "http.token")
                tokenLine = v.mark.line
            case "allowOrigins": http.allowOrigins = try list(v, "http.allowOrigins").map { try string($0, "http.allowOrigins") }
            case "maxConnections": http.maxConnections = try int(v, "http.maxConnections", min: 1)
            default: throw unknown(v, "http.\(k)")
            }
        }
        guard enabled else { return nil }
        if let problem = http.problem { throw error(node, problem) }
        return http
    }

    func jumps(_ node: YAMLNode) throws -> DaemonConfiguration.DeviceJumps {
        var match: String?
        var setting: JumpSetting?
        for (k, v) in try mapping(node, "touchJumps[]") {
            switch k {
            case "match": match = try selector(v, "touchJumps.match")
            case "threshold":
                guard case .scalar(let s) = v, let parsed = JumpSetting(text: s.string) else {
                    throw error(v, "'touchJumps.threshold' must be default, off or a positive number of millimetres")
                }
                setting = parsed
            default: throw unknown(v, "touchJumps.\(k)")
            }
        }
        guard let match else { throw error(node, "a 'touchJumps' entry needs 'match'") }
        guard let setting else { throw error(node, "a 'touchJumps' entry needs 'threshold'") }
        return .init(match: match, setting: setting)
    }

    func calibration(_ node: YAMLNode) throws -> DaemonConfiguration.DeviceCalibration {
        var match: String?
        var c = Calibration.identity
        var matrix: Calibration?
        for (k, v) in try mapping(node, "calibration[]") {
            switch k {
            case "match": match = try selector(v, "calibration.match")
            case "rotation":
                guard let r = v.int, let rotation = Calibration.rotation(degrees: r) else {
                    throw error(v, "'calibration.rotation' must be 0, 90, 180 or 270")
                }
                c = rotation.after(c)
            case "swapXY": if try bool(v, "calibration.swapXY") { c = Calibration.swapXY.after(c) }
            case "invertX": if try bool(v, "calibration.invertX") { c = Calibration.invertX.after(c) }
            case "invertY": if try bool(v, "calibration.invertY") { c = Calibration.invertY.after(c) }
            case "matrix":
                let values = try list(v, "calibration.matrix").map { try double($0, "calibration.matrix") }
                guard values.count == 6 else { throw error(v, "'calibration.matrix' must have 6 numbers (a b c d e f)") }
                // Bounded, so that every calibrated coordinate stays finite and writable with its
                // six decimals: 1e308 gave `"nx":null`. A real screen's entries are near 0 and 1.
                guard values.allSatisfy({ abs($0) <= 1000 }) else {
                    throw error(v, "'calibration.matrix' entries must be between -1000 and 1000")
                }
                matrix = Calibration(matrix: values)
            default: throw unknown(v, "calibration.\(k)")
            }
        }
        guard let match else { throw error(node, "a 'calibration' entry needs 'match'") }
        // The matrix, when given, applies after rotation, swap and inversion.
        return .init(match: match, calibration: matrix.map { $0.after(c) } ?? c)
    }
}
