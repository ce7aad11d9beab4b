import ArgumentParser
import SystemSupport
import GestureActions
import InputCore
import StrokeClient
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
            daemon goes away. SIGHUP reads the configuration again (an invalid one changes \
            nothing). Exits 78 for an invalid configuration, 69 when the daemon cannot serve \
            gestures.
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

    @Flag(name: .long, help: "Stop when the connection ends instead of reconnecting (after the commands started have ended).")
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
            // Escaped as everything from a file is on a terminal: a shared gestures.yaml could
            // otherwise recolour it, or show a rule reversed, while it is being checked.
            out.line(terminalSafe("\(path): \(configuration.rules.count) rule(s)"))
            for rule in configuration.rules {
                let argv = PlannedCommand.json(rule.action.argv)
                out.line(terminalSafe("  \(rule.name): \(rule.match.kind.rawValue) \(rule.match.phase.rawValue) → \(argv)"))
            }
            out.flush()
            return
        }
        if configuration.rules.isEmpty { gesturesLog("\(path) has no rules: nothing will run") }
        let client = GestureClient(
            configurationPath: path, socketPath: socket ?? StrokeClient.defaultSocketPath, devices: devices, dryRun: dryRun,
            once: once, verbose: verbose)
        try await client.run(configuration)
    }

    private func configurationPath() throws -> String {
        if let config { return config }
        guard let path = GestureActionConfiguration.defaultPath(environment: Environment.variables) else {
            printError("no configuration: neither XDG_CONFIG_HOME nor HOME is set; use --config FILE")
            throw Self.configError
        }
        return path
    }

    /// The file's text, or a configuration error naming it.
    static func read(_ path: String) throws -> String {
        do throws(SettingsFile.Failure) {
            return String(decoding: try SettingsFile.read(path, limit: 1 << 20), as: UTF8.self)
        } catch {
            throw GestureActionConfigurationError(file: path, line: nil, message: "\(error)")
        }
    }
}

/// A line on standard error for `strokes gestures` (the journal, under its user unit).
func gesturesLog(_ message: String) {
    printError("gestures: " + message)
}
