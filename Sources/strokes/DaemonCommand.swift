import ArgumentParser
import Logging
import StrokeDaemon
import StrokeHTTP

#if canImport(Glibc)
import Glibc
#endif

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Serve stroke events from touch devices (or a recording) over a Unix socket.",
        discussion: """
            Clients connect to the socket and speak the protocol in docs/protocol.md. Stops on \
            SIGTERM or SIGINT: live strokes are cancelled (reason shutdown), clients get a goodbye, \
            the socket file is removed. SIGHUP re-reads the configuration. Exits 69 when another \
            daemon accepts connections on the socket (a stale socket file is replaced) or another \
            process on the HTTP address, 78 for an invalid configuration.
            """
    )

    @Option(name: .long, help: "Configuration file (YAML; see config/strokes.yaml).")
    var config: String?

    @Option(name: .long, help: "Socket path (overrides socket.path).")
    var socket: String?

    @Option(name: .long, help: "Serve this recording as if it were a live device (overrides devices.replay).")
    var replay: String?

    @Flag(name: .long, inversion: .prefixedNo, help: "Start the recording again when it ends.")
    var loop: Bool?

    @Option(name: .long, help: "Replay speed: 1 is the recorded pace, 0 as fast as possible.")
    var speed: Double?

    @Option(
        name: .long,
        help: "Also serve HTTP (the browser page, SSE, WebSocket, JSON) at HOST:PORT or a Unix socket path (overrides http.listen; turns HTTP on).")
    var http: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
        if let speed, !DaemonConfiguration.replaySpeeds.contains(speed) {
            throw ValidationError("--speed must be from 0 (as fast as possible) to \(Int(DaemonConfiguration.replaySpeeds.upperBound))")
        }
        if let http, HTTPConfiguration.Listen(http) == nil {
            throw ValidationError("--http must be HOST:PORT (127.0.0.1:7780, [::1]:7780) or an absolute Unix socket path")
        }
    }

    func run() async throws {
        let file: (path: String, contents: DaemonConfiguration)?
        do {
            file = try config.map { (path: $0, contents: try DaemonConfiguration.load(path: $0)) }
        } catch {
            printError("\(error)")
            throw ExitCode(78)  // EX_CONFIG
        }
        var configuration = file?.contents ?? DaemonConfiguration()
        if let socket { configuration.socketPath = socket }
        if let replay { configuration.replay = replay }
        if let loop { configuration.replayLoop = loop }
        if let speed { configuration.replaySpeed = speed }
        if let http, let listen = HTTPConfiguration.Listen(http) {
            var h = configuration.http ?? HTTPConfiguration()
            h.listen = listen
            configuration.http = h
        }
        if let problem = configuration.http?.problem {
            printError(problem)
            throw ExitCode(78)  // EX_CONFIG
        }
        // Read now, so that a missing or empty token is a configuration error with its line, as
        // every other value is (the listener reads it again as it starts).
        if let token = configuration.http?.tokenFile {
            do throws(HTTPConfiguration.TokenError) {
                _ = try HTTPConfiguration.readToken(token)
            } catch {
                let place = file.map { "\($0.path)\(configuration.httpTokenLine.map { ":\($0)" } ?? "")" } ?? "http.token"
                printError("\(place): 'http.token' \(token): \(error.message)")
                throw ExitCode(78)  // EX_CONFIG
            }
        }

        let level = Logger.Level(rawValue: logLevel)!
        LoggingSystem.bootstrap { label in
            // Written by a thread of its own: a standard error that blocks never stops the loop.
            var handler = TerminalSafeLogHandler(inner: StreamLogHandler(label: label, stream: QueuedStandardError()))
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "strokes")
        // A token every local user can read guards nothing from them (an adversary's finding:
        // taken without a word). Warned, not refused: the file is the administrator's to place.
        if let token = configuration.http?.tokenFile, let mode = HTTPConfiguration.modeIfOthersMayRead(token) {
            logger.warning(
                "http.token \(token) is readable by every local user (mode \(String(mode, radix: 8))): any of them can use the token; chmod o-r it")
        }
        do {
            var listeners: [DaemonService.Listener] = []
            if let http = configuration.http {
                // A Unix socket listener gets the client socket's mode and group.
                var unixSocket = SocketServer.Options(path: "")
                unixSocket.mode = configuration.socketMode
                unixSocket.group = configuration.socketGroup
                unixSocket.groupRequired = configuration.socketGroupConfigured
                listeners.append { [unixSocket] daemon in
                    try await HTTPServer.start(daemon: daemon, configuration: http, unixSocket: unixSocket, logger: logger)
                }
            }
            try await DaemonService(configuration: configuration, file: file, logger: logger, listeners: listeners).run()
        } catch let error as SocketServerError {
            logger.critical("cannot run: \(error)")
            if case .inUse = error { throw Exit.unavailable }  // 69: the socket belongs to another daemon
            if case .passedSocket = error { throw ExitCode(78) }  // EX_CONFIG: the socket unit's
            throw ExitCode(1)
        } catch let error as HTTPServerError {
            logger.critical("cannot run: \(error)")
            if case .inUse = error { throw Exit.unavailable }  // 69, as for the socket
            throw ExitCode(1)
        } catch {
            logger.critical("cannot run: \(error)")
            throw ExitCode(1)
        }
    }
}
