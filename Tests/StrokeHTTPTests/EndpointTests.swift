import Foundation
import Logging
import StrokeClient
import StrokeDaemon
import StrokeHTTP
import StrokeProtocol
import StrokeRender
import Testing

@Suite(.serialized) struct EndpointTests {
    @Test func pageAndAssetsAreServedWithTheirTypes() async throws {
        let d = try await HTTPTestDaemon()
        let page = try d.get("/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("page.js"))
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        #expect(try d.get("/page.js").headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(try d.get("/page.css").headers["content-type"] == "text/css; charset=utf-8")
        // Nothing else is a file: no traversal, no directory.
        for target in ["/../Package.swift", "/Page/index.html", "/%2e%2e/etc/passwd", "/page.js/", "/index.htm"] {
            let r = try d.get(target)
            #expect(r.status == 404, "\(target)")
            #expect(r.json["error"] as? String == "unknownRequest")
        }
        try await d.stop()
    }

    @Test func healthzAndJSONEndpointsAnswerWithTheReplyObjects() async throws {
        let d = try await HTTPTestDaemon()
        try await d.advance(20)  // four fingers down (golden transcript 03)
        let health = try d.get("/healthz")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "ok")

        let devices = try d.get("/devices")
        #expect(devices.status == 200)
        #expect(devices.headers["content-type"] == "application/json")
        #expect(devices.json["type"] as? String == "reply")
        #expect(devices.json["request"] as? String == "devices")
        #expect((devices.json["devices"] as? [[String: Any]])?.first?["device"] as? Int == 1)

        // The same bytes as the Unix socket's reply to the same request.
        let socket = try d.socketClient()
        for (target, request) in [
            ("/devices", #"{"request":"devices"}"#), ("/live", #"{"request":"live"}"#),
            ("/live?devices=2", #"{"request":"live","devices":[2]}"#),
            ("/live?devices=", #"{"request":"live","devices":[]}"#),
            ("/history?limit=2", #"{"request":"history","limit":2}"#),
        ] {
            try socket.send(request)
            let line = try #require(try socket.readLine(timeout: 5))
            let r = try d.get(target)
            #expect(r.status == 200)
            #expect(r.text == line + "\n", "\(target)")
        }
        let live = try d.get("/live").json
        #expect((live["strokes"] as? [Any])?.count == 4)

        let stats = try d.get("/stats").json
        #expect(stats["request"] as? String == "stats")
        #expect(stats["daemon"] != nil)
        #expect(stats["you"] == nil)
        try await d.stop()
    }

    @Test func historyIsPagedWithCursor() async throws {
        var settings = Daemon.Settings()
        settings.historyPageBytes = 4096
        let d = try await HTTPTestDaemon(settings: settings)
        try await d.advance()
        var cursor: String?
        var strokes = 0
        var pages = 0
        repeat {
            let target = cursor.map { "/history?cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" } ?? "/history"
            let r = try d.get(target)
            #expect(r.status == 200)
            strokes += (r.json["strokes"] as? [Any])?.count ?? 0
            cursor = r.json["cursor"] as? String
            pages += 1
        } while cursor != nil && pages < 100
        #expect(pages > 1)
        let completed = try await d.onLoop { $0.hub.tracker.completed.count }
        #expect(strokes == completed)
        let bad = try d.get("/history?cursor=999999-999999")
        #expect(bad.status == 400)
        #expect(bad.json["error"] as? String == "badArgument")
        try await d.stop()
    }

    @Test func badParametersUnknownPathsAndOtherMethodsAreJSONErrors() async throws {
        let d = try await HTTPTestDaemon()
        let notFound = try d.get("/nope")
        #expect(notFound.status == 404)
        #expect(notFound.headers["content-type"] == "application/json")
        #expect(notFound.json["type"] as? String == "error")
        #expect(notFound.json["error"] as? String == "unknownRequest")
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
            let c = try d.connect()
            var r = try c.request(method, "/devices", headers: ["Content-Length": "0"], port: d.port)
            #expect(r.status == 405, "\(method)")
            #expect(r.headers["allow"] == "GET, HEAD")
            r.body = try c.take(Int(r.headers["content-length"] ?? "0") ?? 0)
            #expect(r.json["error"] as? String == "unknownRequest")
        }
        // The %-escapes found by a black-box test: the parameter was dropped and the request served.
        for target in [
            "/live?devices=x", "/history?limit=-1", "/history?limit=2000000", "/events?events=began,nope", "/events?lastEventId=abc",
            "/live?devices=%ZZ", "/history?limit=5%", "/history?cursor=%", "/history?devices=1%G", "/stats?x%FF=1",
        ] {
            let r = try d.get(target)
            #expect(r.status == 400, "\(target)")
            #expect(r.json["error"] as? String == "badArgument", "\(target)")
        }
        let ws = try d.get("/ws")
        #expect(ws.status == 426)
        try await d.stop()
    }

    /// A `HEAD` is answered with the head a `GET` gets (status, type, length) and no body: the
    /// next answer on the connection is read right after it (`curl -I`, monitors). It was a 405.
    @Test func headIsAGetWithoutItsBody() async throws {
        let d = try await HTTPTestDaemon()
        let c = try d.connect()
        for target in ["/healthz", "/devices", "/", "/nope", "/history?limit=-1"] {
            let get = try d.get(target)
            let head = try c.request("HEAD", target, port: d.port)
            #expect(head.status == get.status, "\(target)")
            #expect(head.headers["content-type"] == get.headers["content-type"], "\(target)")
            #expect(head.headers["content-length"] == String(get.body.count), "\(target)")
        }
        // The stream's head, not a stream: the connection closes after it.
        let events = try c.request("HEAD", "/events", port: d.port)
        #expect(events.status == 200)
        #expect(events.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(c.waitForClose(timeout: 5))
        #expect(c.buffer.isEmpty)
        try await d.stop()
    }

    @Test func garbageRequestsGetAnErrorAndTheListenerGoesOn() async throws {
        let d = try await HTTPTestDaemon()
        for garbage in ["\u{0}\u{1}\u{2}garbage\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "GET\r\n\r\n", String(repeating: "A", count: 100_000) + "\r\n\r\n"] {
            let c = try d.connect()
            try? c.send(garbage)
            // NIO's codec answers 400 (or just closes); never a crash, never a hang.
            #expect(c.waitForClose(timeout: 5), "\(garbage.prefix(20).debugDescription)")
        }
        // A header section far beyond NIO's limit is refused too.
        let c = try d.connect()
        try? c.send("GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 40_000))
        #expect(c.waitForClose(timeout: 5))
        #expect(try d.get("/healthz").status == 200)
        try await d.stop()
    }

    /// RFC 9112: the absolute form of a target is served as its path (§3.2.2), and an HTTP/1.1
    /// request without `Host` is a 400 (§3.2).
    @Test func absoluteFormIsServedAndAMissingHostIs400() async throws {
        let d = try await HTTPTestDaemon()
        let c = try d.connect()
        let absolute = try c.request("GET", "http://127.0.0.1:\(d.port)/healthz", port: d.port)
        #expect(absolute.status == 200)
        let bare = try d.connect()
        try bare.send("GET /healthz HTTP/1.1\r\n\r\n")
        #expect(try bare.responseHead().status == 400)
        try await d.stop()
    }

    @Test func renderSVGIsWhatRenderSocketDraws() async throws {
        let d = try await HTTPTestDaemon()
        try await d.advance(20)
        try expectSameSVG(d, live: 4)
        try await d.advance()
        try expectSameSVG(d, live: 0)
        try await d.stop()
    }

    private func expectSameSVG(_ d: HTTPTestDaemon, live: Int) throws {
        let r = try d.get("/render.svg")
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "image/svg+xml; charset=utf-8")
        #expect(r.text.hasPrefix("<?xml") || r.text.hasPrefix("<svg"))
        // `strokes render --socket`'s scene: devices, history and the live strokes, through the
        // protocol's objects (DaemonScene), drawn by the same renderer.
        let socket = try d.socketClient()
        var objects: [StrokeObject] = []
        var devices: [RenderScene.Device] = []
        for request in [Request(id: 1, .devices), Request(id: 2, .history()), Request(id: 3, .live())] {
            try socket.send(try request.line())
            guard case .reply(let reply) = try ServerMessage(line: try #require(try socket.readLine(timeout: 5))) else {
                Issue.record("no reply")
                continue
            }
            switch reply.result {
            case .devices(let list): devices = list.map(RenderScene.Device.init)
            case .history(let page): objects += page.strokes
            case .live(_, let strokes): objects += strokes
            default: Issue.record("unexpected reply")
            }
        }
        #expect(objects.count == 4)
        #expect(objects.filter { $0.state == .inProgress }.count == live)
        let scene = RenderScene(title: "strokes daemon", devices: devices, strokes: try objects.map(RenderScene.Stroke.init))
        #expect(r.text == SVGRenderer().render(scene))
    }
}

@Suite(.serialized) struct UnixListenerTests {
    /// A daemon, a fresh directory (removed by the caller) and the listener's socket path in it.
    static func setUp() async throws -> (directory: String, path: String, daemon: HTTPTestDaemon, logger: Logger) {
        let directory = NSTemporaryDirectory() + "strokes-http-unix-\(UUID().uuidString.prefix(8))"
        let d = try await HTTPTestDaemon(http: { _ in })
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return (directory, directory + "/http.sock", d, logger)
    }

    @Test func aUnixSocketListenerServesAndRefusesToStealALiveOne() async throws {
        let (directory, path, d, logger) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await HTTPServer.start(
            daemon: d.daemon, configuration: HTTPConfiguration(listen: .unix(path: path)), logger: logger)
        let socket = try LineSocket(path: path)
        // Any Host: a Unix socket's file permissions guard it (a reverse proxy sends its own).
        try socket.sendRaw(Array("GET /healthz HTTP/1.1\r\nHost: strokes.example.org\r\n\r\n".utf8))
        #expect(try socket.readLine(timeout: 5)?.hasPrefix("HTTP/1.1 200") == true)
        // A second listener on the same live path is refused; the first keeps its socket.
        await #expect(throws: HTTPServerError.self) {
            _ = try await HTTPServer.start(daemon: d.daemon, configuration: HTTPConfiguration(listen: .unix(path: path)), logger: logger)
        }
        #expect(SocketServer.socketAccepts(path))
        await server.stop()
        try await d.stop()
    }

    /// A Unix listener's peers have credentials, and the socket's allow-lists hold for them: a
    /// uid they do not admit gets 403 for data (an adversary's finding: it read everything the
    /// client socket refused it). Needs root, to ask as another uid (`setpriv`).
    @Test func aUnixListenerHoldsItsPeersToTheAllowLists() async throws {
        let python = "/usr/bin/python3"  // not one under /root, which the other uid cannot reach
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            FileManager.default.isExecutableFile(atPath: python)
        else { return }
        let directory = NSTemporaryDirectory() + "strokes-http-allow-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o755)
        var settings = Daemon.Settings()
        settings.allowUIDs = [4242]
        let d = try await HTTPTestDaemon(settings: settings)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var options = SocketServer.Options(path: "")
        options.mode = 0o666
        options.group = nil
        let path = directory + "/http.sock"
        let server = try await HTTPServer.start(
            daemon: d.daemon, configuration: HTTPConfiguration(listen: .unix(path: path)), unixSocket: options, logger: logger)
        func statusLine(of target: String, asUID uid: String?) throws -> String {
            let ask = """
                import socket, sys
                s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
                s.sendall(b'GET ' + sys.argv[2].encode() + b' HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n')
                print(s.recv(200).split(b'\\r\\n')[0].decode())
                """
            let p = Process()
            p.executableURL = URL(fileURLWithPath: uid == nil ? python : "/usr/bin/setpriv")
            p.arguments = (uid.map { ["--reuid", $0, "--regid", $0, "--clear-groups", python] } ?? []) + ["-c", ask, path, target]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            p.waitUntilExit()
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try statusLine(of: "/live", asUID: "65534") == "HTTP/1.1 403 Forbidden")
        #expect(try statusLine(of: "/events", asUID: "65534") == "HTTP/1.1 403 Forbidden")
        #expect(try statusLine(of: "/healthz", asUID: "65534") == "HTTP/1.1 200 OK", "no data: not guarded")
        #expect(try statusLine(of: "/live", asUID: nil) == "HTTP/1.1 200 OK", "root is always admitted")
        await server.stop()
        try await d.stop()
    }

    /// The HTTP listener's Unix socket is owned as the client socket is: the mode and group it is
    /// given (the client socket's) set before it listens, where it had the umask's (0755, 0777
    /// under umask 0), and its file removed at stop only while it is still its own.
    @Test func aUnixSocketListenerHasTheSocketsModeAndRemovesOnlyItsOwnFile() async throws {
        let (directory, path, d, logger) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for mode: mode_t in [0o660, 0o600] {
            var options = SocketServer.Options(path: "")
            options.mode = mode
            options.group = nil
            let server = try await HTTPServer.start(
                daemon: d.daemon, configuration: HTTPConfiguration(listen: .unix(path: path)), unixSocket: options, logger: logger)
            var st = stat()
            #expect(lstat(path, &st) == 0 && st.st_mode & 0o777 == mode)
            await server.stop()
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        // A file that is no longer its own (removed, and another bound there) stays at stop.
        let server = try await HTTPServer.start(
            daemon: d.daemon, configuration: HTTPConfiguration(listen: .unix(path: path)), logger: logger)
        unlink(path)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("another's".utf8)))
        await server.stop()
        #expect(FileManager.default.fileExists(atPath: path))
        try await d.stop()
    }
}
