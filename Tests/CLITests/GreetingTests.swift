import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The command-line clients (`watch`, `watch --json`, `render --socket`) speak protocol 1 only: a
/// daemon that greets with another version (or no `hello`) is refused with EX_PROTOCOL, as
/// `StrokeClient` refuses it, instead of its messages being read as this version's.
@Suite(.serialized, .timeLimit(.minutes(1))) struct GreetingTests {
    /// Serves one connection at `path`: `lines`, then waits for the client to close.
    static func serve(_ lines: [String], at path: String) throws -> Int32 {
        let fd = boundUnixSocket(path)
        guard fd >= 0, listen(fd, 1) == 0 else { throw CocoaError(.fileWriteUnknown) }
        Thread {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            for line in lines {
                let bytes = Array((line + "\n").utf8)
                _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
        }.start()
        return fd
    }

    static let goodbye = #"{"type":"goodbye","reason":"shutdown"}"#

    static func hello(protocol version: Int) -> String {
        #"{"type":"hello","protocol":\#(version),"daemon":"strokes 9","instance":"i","seq":0,"features":["subscribe","devices","history"],"maxLineLength":65536}"#
    }

    func run(_ arguments: [String], greeting: String) throws -> CLI.Result {
        let dir = NSTemporaryDirectory() + "strokes-greeting-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fd = try Self.serve([greeting, Self.goodbye], at: dir + "/s.sock")
        defer { close(fd) }
        return try CLI.run(arguments.map { $0 == "SOCKET" ? dir + "/s.sock" : $0 == "OUT" ? dir + "/out.svg" : $0 })
    }

    static let clients = [["watch", "--socket", "SOCKET"], ["watch", "--json", "--socket", "SOCKET"], ["render", "--socket", "SOCKET", "-o", "OUT"]]

    @Test(arguments: clients) func anotherProtocolVersionIsRefused(_ arguments: [String]) throws {
        let r = try run(arguments, greeting: Self.hello(protocol: 2))
        #expect(r.status == 76, "\(r.stderr)")
        #expect(r.stderr.contains("speaks protocol 2, this client 1"), "\(r.stderr)")
        #expect(!r.stdout.contains("\"protocol\":2"), "nothing of its stream is passed on")
    }

    @Test(arguments: clients) func aGreetingThatIsNotAHelloIsRefused(_ arguments: [String]) throws {
        let r = try run(arguments, greeting: "\u{1b}]0;owned\u{7}")
        #expect(r.status == 76, "\(r.stderr)")
        #expect(r.stderr.contains("did not greet with the strokes protocol's hello: \\u{1b}]0;owned\\u{7}"), "\(r.stderr)")
    }

    /// A socket that accepts and says nothing (a stopped daemon: the kernel completes the
    /// connection from the listen backlog; or another program's socket): the clients give up after
    /// 5 s without a `hello` instead of waiting forever. `gestures` through `StrokeClient`.
    @Test(arguments: [["watch", "--socket", "SOCKET"], ["watch", "--json", "--socket", "SOCKET"], ["gestures", "--once", "--config", "CONFIG", "--socket", "SOCKET"]])
    func aServerThatNeverGreetsIsGivenUpOn(_ arguments: [String]) throws {
        let dir = NSTemporaryDirectory() + "strokes-greeting-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "rules: []\n".write(toFile: dir + "/g.yaml", atomically: true, encoding: .utf8)
        let fd = try Self.serve([], at: dir + "/s.sock")
        defer { close(fd) }
        let r = try CLI.run(arguments.map { $0 == "SOCKET" ? dir + "/s.sock" : $0 == "CONFIG" ? dir + "/g.yaml" : $0 })
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.contains("s.sock sent no hello within 5 s (a stopped daemon, or not a strokes socket)"), "\(r.stderr)")
    }

    @Test func watchEscapesALineItCannotRead() throws {
        let dir = NSTemporaryDirectory() + "strokes-greeting-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fd = try Self.serve([Self.hello(protocol: 1), "not json \u{1b}[2J", Self.goodbye], at: dir + "/s.sock")
        defer { close(fd) }
        let r = try CLI.run(["watch", "--socket", dir + "/s.sock"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("? not json \\u{1b}[2J"), "\(r.stdout)")
        #expect(!r.stdout.unicodeScalars.contains("\u{1b}"))
    }
}
