import GestureRecognizer
import InputCore
import StrokeTracker

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's configuration (`config/strokes.yaml`, documented key by key there). Every key is
/// optional; command-line options override the file.
public struct DaemonConfiguration: Sendable {
    public var socketPath = "/run/strokes/strokes.sock"
    public var socketMode: mode_t = 0o660
    /// `strokes` (systemd/strokes-sysusers.conf): a group that grants the socket and nothing else.
    public var socketGroup: String? = "strokes"
    /// Whether `socketGroup` was configured; the default group is skipped with a warning where it
    /// does not exist or cannot be set (a developer's run), a configured one is an error.
    public var socketGroupConfigured = false
    public var allowUIDs: Set<UInt32>?
    public var allowGIDs: Set<UInt32>?
    /// Device selectors: a path (`/dev/input/event3`), a link (`/dev/input/by-id/…`), or
    /// `name:GLOB` on the device name. Empty: every touch device.
    public var devices: [String] = []
    public var grab = false
    /// A recording to serve when no touch device is found (or always, from `--replay`).
    public var replay: String?
    public var replayLoop = true
    public var replaySpeed = 1.0
    public var queue = QueueLimits()
    public var history = 256
    public var resume = 4096
    public var maxLineLength = 65536
    /// The most `maxLineLength` may be (16 MiB): a request line is a few hundred bytes, and each
    /// client may hold one line this long while it arrives.
    public static let maxLineLengthLimit = 16 << 20
    public var historyPageBytes = 256 << 10
    /// How fast each client's requests are read, by their replies' bytes (`RequestPacing`):
    /// `requests.burstBytes` at once, then `requests.bytesPerSecond`.
    public var requestBurstBytes = 8 << 20
    public var requestBytesPerSecond = 2 << 20
    public var maxClients = 256
    public var maxClientsPerUid = 32
    public var calibrations: [DeviceCalibration] = []
    /// Touch-jump detection per device (docs/decoder.md, "Touch jumps"), first match wins.
    public var touchJumps: [DeviceJumps] = []
    /// Selectors of touch devices whose strokes go on while a pen of their group is in
    /// proximity (`noTouchArbitration`); every other grouped touch device is arbitrated.
    public var noTouchArbitration: [String] = []
    /// The gesture recognisers' thresholds (`gestures:`, docs/gestures.md), and per-device
    /// overrides, first match wins.
    public var gestures = GestureConfiguration()
    public var gestureOverrides: [DeviceGestures] = []

    /// Gesture thresholds for the devices a selector matches: a path, `name:GLOB`, or
    /// `id:VVVV:PPPP` (vendor and product, hex).
    public struct DeviceGestures: Hashable, Sendable {
        public var match: String
        public var configuration: GestureConfiguration
    }

    /// The gesture configuration for a device, from the first override whose selector matches.
    public func gestureConfiguration(path: String, description: DeviceDescription) -> GestureConfiguration {
        gestureOverrides.first { o in
            if o.match.hasPrefix("id:") {
                let parts = o.match.dropFirst(3).split(separator: ":")
                guard parts.count == 2, let v = UInt16(parts[0], radix: 16), let p = UInt16(parts[1], radix: 16) else { return false }
                return description.id.vendor == v && description.id.product == p
            }
            return DeviceSelector(o.match).matches(path: path, name: description.name)
        }?.configuration ?? gestures
    }
    /// The replay speeds `devices.speed` and `--speed` take: 0 is as fast as possible, 1 the
    /// recorded pace. (Negative speeds, frames fed by hand, are for tests and benchmarks only.)
    public static let replaySpeeds: ClosedRange<Double> = 0...1000

    /// The HTTP listener (`http:`); nil: off, the default.
    public var http: HTTPConfiguration?
    /// The line of `http.token` in the file, for the message when the token cannot be read at
    /// start (`HTTPConfiguration.readToken`; not read while parsing, which touches no file).
    public var httpTokenLine: Int?

    /// Calibration for the devices a selector matches (the first matching entry applies).
    public struct DeviceCalibration: Sendable {
        public var match: String
        public var calibration: Calibration
    }

    /// Touch-jump detection for the devices a selector matches.
    public struct DeviceJumps: Hashable, Sendable {
        public var match: String
        public var setting: JumpSetting
    }

    public init() {}

    /// The touch-jump setting for a device, from the first entry whose selector matches.
    public func jumpSetting(path: String, name: String) -> JumpSetting {
        touchJumps.first { DeviceSelector($0.match).matches(path: path, name: name) }?.setting ?? .deviceDefault
    }

    /// Whether a pen of its group in proximity cancels this device's finger strokes.
    public func touchArbitration(path: String, name: String) -> Bool {
        !noTouchArbitration.contains { DeviceSelector($0).matches(path: path, name: name) }
    }

    /// The calibration for a device, from the first entry whose selector matches.
    public func calibration(path: String, name: String) -> Calibration {
        calibrations.first { DeviceSelector($0.match).matches(path: path, name: name) }?.calibration ?? .identity
    }

    /// The daemon settings this configuration implies.
    public var settings: Daemon.Settings {
        var s = Daemon.Settings()
        s.historyLimit = history
        s.resumeLimit = resume
        s.queue = queue
        s.maxLineLength = maxLineLength
        s.historyPageBytes = historyPageBytes
        s.requestPacing = RequestPacing(burst: requestBurstBytes, bytesPerSecond: requestBytesPerSecond)
        s.maxClients = maxClients
        s.maxClientsPerUid = maxClientsPerUid
        s.allowUIDs = allowUIDs
        s.allowGIDs = allowGIDs
        return s
    }
}

extension DaemonConfiguration {
    /// The keys whose values differ between `old` and `new` among those a running daemon cannot
    /// change: they take effect at the next start.
    public static func restartKeysChanged(from old: DaemonConfiguration, to new: DaemonConfiguration) -> [String] {
        var keys: [String] = []
        if old.socketPath != new.socketPath { keys.append("socket.path") }
        if old.socketMode != new.socketMode { keys.append("socket.mode") }
        if old.socketGroup != new.socketGroup { keys.append("socket.group") }
        if old.devices != new.devices { keys.append("devices.match") }
        if old.grab != new.grab { keys.append("devices.grab") }
        if old.replay != new.replay { keys.append("devices.replay") }
        if old.replayLoop != new.replayLoop { keys.append("devices.loop") }
        if old.replaySpeed != new.replaySpeed { keys.append("devices.speed") }
        if old.history != new.history { keys.append("history") }
        if old.resume != new.resume { keys.append("resume") }
        if old.touchJumps != new.touchJumps { keys.append("touchJumps") }
        if old.noTouchArbitration != new.noTouchArbitration { keys.append("noTouchArbitration") }
        if old.gestures != new.gestures || old.gestureOverrides != new.gestureOverrides { keys.append("gestures") }
        if old.http != new.http { keys.append("http") }
        return keys
    }
}

/// Which devices a configuration entry means.
public struct DeviceSelector: Sendable {
    public let text: String
    public init(_ text: String) { self.text = text }

    public func matches(path: String, name: String) -> Bool {
        if text.hasPrefix("name:") { return fnmatch(String(text.dropFirst(5)), name, 0) == 0 }
        if text == path { return true }
        // A link (by-id, by-path) matches the node it points to.
        guard let resolved = realpath(text, nil) else { return false }
        defer { free(resolved) }
        return String(cString: resolved) == path
    }
}
