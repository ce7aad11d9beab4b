import Foundation
import StrokeDaemon
import Testing

@Suite struct HTTPConfigurationTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/strokes.yaml").path

    @Test func theShippedFileLeavesHTTPOffAndItsExampleParses() throws {
        #expect(try DaemonConfiguration.load(path: HTTPConfigurationTests.shipped).http == nil)
        let text = try String(contentsOfFile: HTTPConfigurationTests.shipped, encoding: .utf8)
        let example = text.components(separatedBy: "\n").drop { $0 != "# http:" }
            .map { $0.hasPrefix("# ") ? String($0.dropFirst(2)) : "" }.joined(separator: "\n")
        let h = try #require(try DaemonConfiguration.parse(example, file: "example").http)
        #expect(h.listen == .tcp(host: "127.0.0.1", port: 7780))
        #expect(h.tokenFile == "/etc/strokes/http-token")
        #expect(h.allowOrigins == ["https://strokes.example.org"])
        #expect(h.maxConnections == 64)
    }

    /// A token file every local user may read is warned about (`modeIfOthersMayRead`; the daemon
    /// logs it): an adversary found it taken without a word.
    @Test func aTokenFileOthersMayReadIsNoticed() throws {
        let path = NSTemporaryDirectory() + "strokes-token-\(UUID().uuidString.prefix(8))"
        try "s3cret-token".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (mode, noticed) in [(0o644, true), (0o640, false), (0o600, false), (0o604, true)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            #expect((HTTPConfiguration.modeIfOthersMayRead(path) != nil) == noticed, "\(String(mode, radix: 8))")
        }
        #expect(HTTPConfiguration.modeIfOthersMayRead(path + ".missing") == nil)
    }

    @Test func offByDefaultAndOnWithDefaults() throws {
        #expect(try DaemonConfiguration.parse("history: 10\n", file: "c.yaml").http == nil)
        let on = try #require(try DaemonConfiguration.parse("http: {}\n", file: "c.yaml").http)
        #expect(on.listen == .tcp(host: "127.0.0.1", port: 7780))
        #expect(on.maxConnections == 64)
        #expect(on.tokenFile == nil)
        #expect(on.allowOrigins == nil)
        #expect(try DaemonConfiguration.parse("http: true\n", file: "c.yaml").http == HTTPConfiguration())
        #expect(try DaemonConfiguration.parse("http: false\n", file: "c.yaml").http == nil)
        #expect(try DaemonConfiguration.parse("http:\n  enabled: false\n  listen: 0.0.0.0:80\n", file: "c.yaml").http == nil)
    }

    @Test func everyKey() throws {
        let text = """
            http:
              listen: "[::1]:8080"
              token: /etc/strokes/http-token
              allowOrigins: [https://paint.example.org]
              maxConnections: 8
            """
        let h = try #require(try DaemonConfiguration.parse(text, file: "c.yaml").http)
        #expect(h.listen == .tcp(host: "::1", port: 8080))
        #expect(h.tokenFile == "/etc/strokes/http-token")
        #expect(h.allowOrigins == ["https://paint.example.org"])
        #expect(h.maxConnections == 8)
        let unix = try #require(try DaemonConfiguration.parse("http:\n  listen: /run/strokes/http.sock\n", file: "c.yaml").http)
        #expect(unix.listen == .unix(path: "/run/strokes/http.sock"))
    }

    @Test func errorsNameFileLineAndKey() {
        func error(_ text: String) -> String {
            do {
                _ = try DaemonConfiguration.parse(text, file: "c.yaml")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(error("http:\n  listen: nowhere\n").hasPrefix("c.yaml:2: 'http.listen' must be HOST:PORT"))
        #expect(error("http:\n  listen: 127.0.0.1:99999\n").hasPrefix("c.yaml:2:"))
        #expect(error("http:\n  listen: ::1:80\n").hasPrefix("c.yaml:2:"))
        #expect(error("http:\n  port: 80\n") == "c.yaml:2: unknown key 'http.port' (config/strokes.yaml lists every key)")
        #expect(error("http:\n  maxConnections: 0\n") == "c.yaml:2: 'http.maxConnections' must be an integer ≥ 1")
        // Reachable from other machines without a token: refused.
        #expect(error("http:\n  listen: 0.0.0.0:7780\n").contains("set http.token"))
        #expect(error("http:\n  listen: 0.0.0.0:7780\n  token: /t\n") == "no error")
        #expect(error("http:\n  listen: localhost:7780\n") == "no error")
    }

    @Test func listenAddresses() {
        #expect(HTTPConfiguration.Listen("127.0.0.1:0") == .tcp(host: "127.0.0.1", port: 0))
        #expect(HTTPConfiguration.Listen("[::]:7780") == .tcp(host: "::", port: 7780))
        #expect(HTTPConfiguration.Listen("[::]:7780")?.isLocal == false)
        #expect(HTTPConfiguration.Listen("[::1]:7780")?.isLocal == true)
        #expect(HTTPConfiguration.Listen("127.0.0.2:1")?.isLocal == true)
        #expect(HTTPConfiguration.Listen("relative/path") == nil)
        #expect(HTTPConfiguration.Listen(":80") == nil)
        #expect(HTTPConfiguration.Listen("host") == nil)
    }
}
