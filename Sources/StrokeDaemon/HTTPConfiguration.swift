import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// The optional HTTP listener (`http:` in the configuration, `--http` on the command line; served
/// by `StrokeHTTP`): the browser page, Server-Sent Events, WebSocket and JSON endpoints
/// (docs/protocol.md, "HTTP, SSE and WebSocket"). Off unless configured.
public struct HTTPConfiguration: Hashable, Sendable {
    /// Where the listener accepts connections.
    public enum Listen: Hashable, Sendable, CustomStringConvertible {
        /// An IP address (or `localhost`) and a TCP port (0: any free port).
        case tcp(host: String, port: Int)
        /// A Unix socket path, for a reverse proxy on the same machine.
        case unix(path: String)

        /// `HOST:PORT`, `[IPV6]:PORT`, or an absolute path; nil for anything else.
        public init?(_ text: String) {
            if text.hasPrefix("/") {
                self = .unix(path: text)
                return
            }
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
            else { return nil }
            var host = String(text[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") {
                host = String(host.dropFirst().dropLast())
            } else if host.contains(":") {
                return nil  // an IPv6 address needs its brackets
            }
            guard !host.isEmpty else { return nil }
            self = .tcp(host: host, port: port)
        }

        /// A Unix socket: its peers have credentials (the allow-lists hold for them).
        public var isUnix: Bool {
            if case .unix = self { return true }
            return false
        }

        /// Whether only this machine can connect: a loopback address, `localhost`, or a Unix
        /// socket (which its file's permissions guard).
        public var isLocal: Bool {
            switch self {
            case .unix: return true
            case .tcp(let host, _): return host == "localhost" || host == "::1" || host.hasPrefix("127.")
            }
        }

        public var description: String {
            switch self {
            case .unix(let path): return path
            case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            }
        }
    }

    public var listen: Listen = .tcp(host: "127.0.0.1", port: 7780)
    /// A file holding the token clients must present (`Authorization: Bearer`, or `?token=`);
    /// required when `listen` is not local.
    public var tokenFile: String?
    /// Origins a WebSocket handshake may come from; nil: the listener's own
    /// (`http://127.0.0.1:PORT`, `http://localhost:PORT`, `http://[::1]:PORT`).
    public var allowOrigins: [String]?
    /// HTTP connections served at once (each SSE or WebSocket client is one); more get 503.
    public var maxConnections = 64

    public init(listen: Listen = .tcp(host: "127.0.0.1", port: 7780)) { self.listen = listen }

    /// Why this configuration must not run, if it must not: a listener other machines can reach
    /// needs a token.
    public var problem: String? {
        if !listen.isLocal && tokenFile == nil {
            return "http.listen \(listen) is reachable from other machines: set http.token (a file holding the token) "
                + "or listen on a loopback address (127.0.0.1:PORT) or a Unix socket path"
        }
        return nil
    }
}

extension HTTPConfiguration {
    /// Why a token file is refused.
    public struct TokenError: Error {
        public var message: String
    }

    /// The file's permission bits when others (not its owner or group) may read it; nil otherwise.
    public static func modeIfOthersMayRead(_ path: String) -> UInt32? {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & 0o004 != 0 else { return nil }
        return UInt32(st.st_mode & 0o7777)
    }

    /// The token: the file's contents without surrounding whitespace, 1 to 4096 printable ASCII
    /// bytes. Read when the configuration is (so that a missing or empty file is a configuration
    /// error with its line) and again when the listener starts.
    public static func readToken(_ path: String) throws(TokenError) -> [UInt8] {
        let bytes: [UInt8]
        do throws(SettingsFile.Failure) {
            bytes = try SettingsFile.read(path, limit: 8192)
        } catch {
            throw TokenError(message: "\(error)")
        }
        func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        let token = Array(bytes.drop(while: space).reversed().drop(while: space).reversed())
        guard !token.isEmpty, token.count <= 4096 else { throw TokenError(message: "must hold one token (1 to 4096 bytes)") }
        guard token.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw TokenError(message: "the token must be printable ASCII without spaces")
        }
        return token
    }
}
