/// A request's target (`/history?limit=10&devices=1,2`): the path and the query's parameters,
/// percent-decoded. NIO parses the request; this only splits its URI.
struct RequestTarget: Sendable, Equatable {
    var path: String
    /// The first value of each parameter.
    var query: [String: String]
    /// A parameter's name or value had a malformed `%` escape or decoded to bytes that are not
    /// UTF-8 (such a parameter is not in `query`; the request gets `badArgument`).
    var malformedQuery = false

    init(_ uri: String) {
        let parts = RequestTarget.originForm(uri).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = RequestTarget.decode(parts[0], plusIsSpace: false) ?? String(parts[0])
        query = [:]
        guard parts.count == 2 else { return }
        for pair in parts[1].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = RequestTarget.decode(kv[0], plusIsSpace: true),
                let value = kv.count == 2 ? RequestTarget.decode(kv[1], plusIsSpace: true) : ""
            else {
                malformedQuery = true
                continue
            }
            if query[key] == nil { query[key] = value }
        }
    }

    /// The absolute form (`http://host:port/path?query`, which RFC 9112 §3.2.2 says a server
    /// must accept) as the origin form it stands for (`/path?query`); any other target as it is.
    /// The `Host` header is still what the access checks read.
    static func originForm(_ uri: String) -> Substring {
        let lower = uri.prefix(8).lowercased()
        let schemeLength = lower.hasPrefix("http://") ? 7 : lower.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return uri[...] }
        let rest = uri.dropFirst(schemeLength)
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        return rest[slash] == "?" ? "/" + rest[slash...] : rest[slash...]
    }

    /// The authority of an absolute-form target (`http://HOST:PORT/…`: `HOST:PORT`, empty when
    /// it names none); nil for any other form. RFC 9112 §3.2.2: the server must use it, not
    /// `Host`, as the request's host.
    static func authority(_ uri: String) -> Substring? {
        let lower = uri.prefix(8).lowercased()
        let schemeLength = lower.hasPrefix("http://") ? 7 : lower.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return nil }
        let rest = uri.dropFirst(schemeLength)
        return rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)]
    }

    /// `%XX` escapes decoded (and `+` as a space in the query); nil for a malformed escape or
    /// bytes that are not UTF-8.
    static func decode(_ text: Substring, plusIsSpace: Bool) -> String? {
        guard text.contains("%") || (plusIsSpace && text.contains("+")) else { return String(text) }
        var bytes: [UInt8] = []
        var it = text.utf8.makeIterator()
        while let c = it.next() {
            switch c {
            case UInt8(ascii: "%"):
                guard let h = it.next().flatMap(hexValue), let l = it.next().flatMap(hexValue) else { return nil }
                bytes.append(h << 4 | l)
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            default: bytes.append(c)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `1,2,3` as a JSON array of integers; nil when an entry is not a non-negative integer.
    /// Empty is the empty list (`devices=`, the socket's `"devices":[]`).
    static func integerList(_ text: String) -> String? {
        if text.isEmpty { return "[]" }
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        guard items.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && UInt64($0) != nil }) else { return nil }
        return "[" + items.map { String(UInt64($0)!) }.joined(separator: ",") + "]"
    }

    /// `began,ended` as a JSON array of strings (names are checked by the request's parser).
    static func nameList(_ text: String) -> String? {
        if text.isEmpty { return "[]" }
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        guard items.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter && $0.isASCII } }) else { return nil }
        return "[" + items.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}
