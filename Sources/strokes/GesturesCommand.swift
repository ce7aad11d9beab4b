import ArgumentParser
import Foundation
import GestureActions
import StrokeClient
import StrokeProtocol
import SystemPackage

/// `strokes gestures`: the client that acts on the daemon's gestures in the user's session
/// (docs/gestures.md, "Acting on gestures"). The daemon never runs commands; this process does,
/// as the user.
struct GesturesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestures",
        abstract: "Run commands when the daemon recognises gestures (configured in gestures.yaml).",
        discussion: """
            Reads $XDG_CONFIG_HOME/strokes/gestures.yaml (else ~/.config/strokes/gestures.yaml; \
            config/gestures.yaml is an example), subscribes to the daemon's gesture events and, for \
            each gesture, runs the command of the first rule that matches it. Reconnects when the \
            daemon goes away. Exits 78 for an invalid configuration, 69 when the daemon cannot \
            serve gestures.
            """
    )

    @Option(name: .long, help: "The daemon's socket (default: $STROKES_SOCKET, else /run/strokes/strokes.sock, else $XDG_RUNTIME_DIR/strokes.sock).")
    var socket: String?

    @Option(name: .long, help: "The configuration file.")
    var config: String?

    @Option(name: [.customLong("devices"), .customLong("device")], parsing: .upToNextOption, help: "Only gestures of these devices (ids).")
    var devices: [UInt32] = []

    @Flag(name: .long, help: "Run nothing: print what would run, one JSON line per gesture matched.")
    var dryRun = false

    @Flag(name: .long, help: "Check the configuration, print its rules and exit.")
    var check = false

    @Flag(name: .long, help: "Stop when the connection ends instead of reconnecting.")
    var once = false

    @Flag(name: .long, help: "Log every command run and every gesture a limit skipped.")
    var verbose = false

    /// Invalid configuration: sysexits' `EX_CONFIG`, as `strokes daemon`.
    static let configError = ExitCode(78)

    func run() async throws {
        let path = try configurationPath()
        let configuration: GestureActionConfiguration
        do {
            configuration = try GestureActionConfiguration.parse(try Self.read(path), file: path)
        } catch {
            printError("\(error)")
            throw Self.configError
        }
        if check {
            var out = OutputBuffer()
            out.line("\(path): \(configuration.rules.count) rule(s)")
            for rule in configuration.rules {
                let argv = PlannedCommand.json(rule.action.argv)
                out.line("  \(rule.name): \(rule.match.kind.rawValue) \(rule.match.phase.rawValue) → \(argv)")
            }
            out.flush()
            return
        }
        if configuration.rules.isEmpty { log("\(path) has no rules: nothing will run") }
        try await serve(GestureDispatcher(configuration))
    }

    private func configurationPath() throws -> String {
        if let config { return config }
        guard let path = GestureActionConfiguration.defaultPath(environment: ProcessInfo.processInfo.environment) else {
            printError("no configuration: neither XDG_CONFIG_HOME nor HOME is set; use --config FILE")
            throw Self.configError
        }
        return path
    }

    private func serve(_ initial: GestureDispatcher) async throws {
        var dispatcher = initial
        let spawner = dryRun ? nil : CommandSpawner(log: { log($0) })
        let socketPath = socket ?? StrokeClient.defaultSocketPath
        let client = try await connect(socketPath)
        defer { client.close() }
        guard client.hello.features.contains("gestures") else {
            printError("\(client.hello.daemon) at \(socketPath) does not recognise gestures (no feature 'gestures')")
            throw Exit.unavailable
        }
        let events: [Request.StreamType] = [Request.StreamType(rawValue: "gesture"), .deviceAdded, .deviceRemoved]
        var names: [UInt32: String] = [:]
        var out = OutputBuffer()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            for try await event in client.subscribe(devices: devices.isEmpty ? nil : devices, events: events, reconnect: !once) {
                switch event {
                case .message(.gesture(let gesture)):
                    let elapsed = (clock.now - start).components
                    let now = elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
                    let name = names[gesture.device]
                    switch dispatcher.decide(gesture, deviceName: name, running: spawner?.running ?? 0, now: now) {
                    case .none: break
                    case .run(let command):
                        guard let spawner else {
                            out.line(command.dryRunLine)
                            out.flush()
                            continue
                        }
                        switch spawner.spawn(command) {
                        case .success(let pid): if verbose { log("\(command.rule): started \(command.argv) (pid \(pid))") }
                        case .failure(let errno): log("\(command.rule): cannot run \(command.argv): \(errno)")
                        }
                    case .ruleLimited(let rule): if verbose { log("\(rule): skipped a gesture (the rule's rate limit)") }
                    case .globalLimited(let rule): if verbose { log("\(rule): skipped a gesture (the global rate limit)") }
                    case .busy(let rule):
                        log("\(rule): skipped a gesture: \(dispatcher.configuration.maxRunning) commands are still running")
                    }
                case .message(.snapshot):
                    // A new subscription (the first, or after a gap): device ids may have changed.
                    // Without names, rules by name do not match until the next snapshot; ids still do.
                    do {
                        names = Dictionary(try await client.devices().map { ($0.device, $0.name) }) { $1 }
                    } catch {
                        log("cannot list the daemon's devices: \(error)")
                    }
                case .message(.deviceAdded(let added)): names[added.device.device] = added.device.name
                case .message(.deviceRemoved(let removed)): names[removed.device] = nil
                case .message(.goodbye(let goodbye)):
                    if once { return }
                    log("the daemon said goodbye (\(goodbye.reason)); reconnecting")
                case .message(.error(let error)): log("the daemon: \(error.error): \(error.message)")
                case .message(.hello), .message(.reply), .message(.stroke), .message(.hover), .message(.replayEnded),
                    .message(.unknown):
                    break
                case .gap(let gap): log("reconnected to the daemon (\(gap.reason))")
                }
            }
        } catch let error as StrokeClientError where once && error.code == .connectionLost {
            return
        } catch let error as StrokeClientError {
            printError("\(error)")
            throw Exit.unavailable
        }
    }

    /// The first connection; without `--once`, retried until the daemon answers (a user unit
    /// may start before it), said once.
    private func connect(_ path: String) async throws -> StrokeClient {
        let backoff = Backoff(initial: 0.1, maximum: 5)
        var failures = 0
        while true {
            do {
                return try await StrokeClient.connect(path: path)
            } catch let error as StrokeClientError where error.code == .connectionLost && !once {
                failures += 1
                if failures == 1 { log("waiting for the daemon at \(path): \(error.message)") }
                try await Task.sleep(nanoseconds: UInt64(backoff.delay(after: failures) * 1e9))
            } catch {
                printError("\(error)")
                throw Exit.unavailable
            }
        }
    }

    /// The file's text, or a configuration error naming it.
    private static func read(_ path: String) throws -> String {
        do {
            let fd = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
            defer { try? fd.close() }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 14)
            while true {
                let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0, retryOnInterrupt: true) }
                if n == 0 { break }
                bytes += chunk[0..<n]
                if bytes.count > 1 << 20 { throw GestureActionConfigurationError(file: path, line: nil, message: "larger than 1 MiB") }
            }
            return String(decoding: bytes, as: UTF8.self)
        } catch let error as Errno {
            throw GestureActionConfigurationError(file: path, line: nil, message: "cannot read: \(error)")
        }
    }
}

/// A line on standard error for `strokes gestures` (the journal, under its user unit).
private func log(_ message: String) {
    printError("gestures: " + message)
}
