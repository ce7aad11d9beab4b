/// Builds one JSON object as UTF-8 bytes, keys in the order written. Numbers are formatted
/// deterministically (fixed decimals, trailing zeros trimmed) so transcripts can be compared
/// byte for byte.
///
/// The daemon keeps one writer and `reset()`s it for every stream message, so encoding allocates
/// nothing once the buffer has grown to the longest line (docs/performance.md, "JSON encoding").
/// A writer is a value: a copy keeps the bytes it had, whatever the original writes next.
public struct JSONWriter: Sendable {
    private var storage: JSONBytes
    private var count = 0
    private var first = true

    public init(capacity: Int = 256) {
        storage = JSONBytes(capacity: max(capacity, 64))
        append(byte: UInt8(ascii: "{"))
    }

    /// A writer of bytes that are not an object (a lone number or string).
    private init(empty capacity: Int) {
        storage = JSONBytes(capacity: max(capacity, 64))
    }

    /// Starts a new object in the same storage.
    public mutating func reset() {
        if isKnownUniquelyReferenced(&storage) { storage.length = 0 }
        count = 0
        first = true
        append(byte: UInt8(ascii: "{"))
    }

    /// Appends the closing brace: the bytes are then the finished object.
    public mutating func close() { append(byte: UInt8(ascii: "}")) }

    /// The length of the bytes so far (without the closing brace until `close()`): where the
    /// next key's comma goes.
    public var byteCount: Int { count }

    /// The bytes so far.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage.base, count: count))
    }

    /// A copy of the bytes so far.
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// The text so far (without the closing brace until `close()`).
    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The finished object (the bytes so far and a closing brace).
    public func finish() -> String {
        withBytes { bytes in
            String(unsafeUninitializedCapacity: bytes.count + 1) { out in
                _ = out.initialize(fromContentsOf: bytes)
                out[bytes.count] = UInt8(ascii: "}")
                return bytes.count + 1
            }
        }
    }

    // MARK: Fields

    public mutating func field(_ k: StaticString, _ v: String) {
        key(k)
        appendQuoted(v)
    }

    /// A string value known at compile time that needs no escaping (a name from a fixed set).
    public mutating func field(_ k: StaticString, name v: StaticString) {
        let start = reserve(k.utf8CodeUnitCount + v.utf8CodeUnitCount + 6)
        let p = JSONWriter.putName(v, at: putKey(k, at: start))
        commit(p - start)
    }

    public mutating func field<I: BinaryInteger>(_ k: StaticString, _ v: I) {
        let start = reserve(k.utf8CodeUnitCount + 25)
        let p = JSONWriter.putInteger(v, at: putKey(k, at: start))
        commit(p - start)
    }

    public mutating func field<I: BinaryInteger>(_ k: StaticString, _ v: I?) {
        key(k)
        if let v { appendInteger(v) } else { append("null") }
    }

    /// An integer under a key made at run time (escaped as needed).
    public mutating func field<I: BinaryInteger>(named k: String, _ v: I) {
        if first { first = false } else { append(byte: UInt8(ascii: ",")) }
        appendQuoted(k)
        append(byte: UInt8(ascii: ":"))
        appendInteger(v)
    }

    public mutating func field(_ k: StaticString, _ v: Bool) {
        key(k)
        append(v ? "true" : "false")
    }

    public mutating func field(_ k: StaticString, _ v: Double, decimals: Int) {
        let start = reserve(k.utf8CodeUnitCount + 48)
        let wasFirst = first
        if let p = JSONWriter.putFixed(v, decimals: decimals, at: putKey(k, at: start)) {
            commit(p - start)
        } else {
            first = wasFirst  // the key written at `start` is not committed: write it again
            key(k)
            appendFixed(v, decimals: decimals)
        }
    }

    public mutating func field(_ k: StaticString, strings: [String]) {
        key(k)
        append(byte: UInt8(ascii: "["))
        for (i, s) in strings.enumerated() {
            if i > 0 { append(byte: UInt8(ascii: ",")) }
            appendQuoted(s)
        }
        append(byte: UInt8(ascii: "]"))
    }

    /// Starts an array value, for `element(_:count:)` and `endArray()`: names written one at a
    /// time, without building an array of them.
    public mutating func beginArray(_ k: StaticString) {
        key(k)
        append(byte: UInt8(ascii: "["))
    }

    /// A name in the array `beginArray` started; `count` counts the names written so far.
    public mutating func element(_ name: StaticString, count: inout Int) {
        if count > 0 { append(byte: UInt8(ascii: ",")) }
        count += 1
        appendName(name)
    }

    public mutating func endArray() { append(byte: UInt8(ascii: "]")) }

    /// An integer in the array `beginArray` started; `count` counts the elements written so far.
    public mutating func element<I: BinaryInteger>(integer v: I, count: inout Int) {
        if count > 0 { append(byte: UInt8(ascii: ",")) }
        count += 1
        appendInteger(v)
    }

    /// Inserts already-encoded JSON as the value of `k`.
    public mutating func raw(_ k: StaticString, _ json: String) {
        key(k)
        var json = json
        json.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Inserts already-encoded JSON bytes as the value of `k`.
    public mutating func raw(_ k: StaticString, bytes json: [UInt8]) {
        key(k)
        json.withUnsafeBytes { append($0) }
    }

    /// `v` rounded to `decimals` places, without trailing zeros (`0.5`, `12`, `-0.000125`).
    public static func fixed(_ v: Double, decimals: Int) -> String {
        var w = JSONWriter(empty: 32)
        w.appendFixed(v, decimals: decimals)
        return w.text
    }

    /// `s` as a JSON string: `"`, `\` and control characters escaped, everything else as is.
    public static func appendQuoted(_ s: String, to out: inout String) {
        var w = JSONWriter(empty: s.utf8.count * 6 + 2)
        w.appendQuoted(s)
        out.append(w.text)
    }
}

// MARK: - Writing bytes

extension JSONWriter {
    /// Room for `n` more bytes, where the next byte goes. Copies the storage first when it is
    /// too small, or when a copy of this writer wrote to it since (its `length` is not ours).
    @inline(__always)
    private mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if storage.length != count || count + n > storage.capacity { makeRoom(n) }
        return storage.base + count
    }

    private mutating func makeRoom(_ n: Int) {
        let new = JSONBytes(capacity: max(storage.capacity * 2, count + n))
        new.base.initialize(from: storage.base, count: count)
        new.length = count
        storage = new
    }

    /// Marks `n` bytes written at `reserve`'s pointer.
    @inline(__always)
    private mutating func commit(_ n: Int) {
        count += n
        storage.length = count
    }

    @inline(__always)
    private mutating func append(byte: UInt8) {
        reserve(1).pointee = byte
        commit(1)
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        let p = reserve(bytes.count)
        p.update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        commit(bytes.count)
    }

    @inline(__always)
    private mutating func append(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        JSONWriter.copyShort(s.utf8Start, to: reserve(n), count: n)
        commit(n)
    }

    @inline(__always)
    private mutating func key(_ k: StaticString) {
        let start = reserve(k.utf8CodeUnitCount + 4)
        commit(putKey(k, at: start) - start)
    }

    /// Writes `,"k":` (no comma before the first key) at `p`; returns where it ends.
    @inline(__always)
    private mutating func putKey(_ k: StaticString, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = p
        if first {
            first = false
        } else {
            p.pointee = UInt8(ascii: ",")
            p += 1
        }
        let n = k.utf8CodeUnitCount
        p.pointee = UInt8(ascii: "\"")
        JSONWriter.copyShort(k.utf8Start, to: p + 1, count: n)
        p += n + 1
        p[0] = UInt8(ascii: "\"")
        p[1] = UInt8(ascii: ":")
        return p + 2
    }

    /// Copies `n` bytes (a key or a name: a few to a few dozen) without a call to `memmove`, which was a
    /// tenth of encoding a stroke event: up to 16 bytes as two overlapping loads and stores that
    /// stay within both ranges.
    @inline(__always)
    private static func copyShort(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count n: Int) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
        switch n {
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self), tail = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
        case 4..<8:
            let head = from.loadUnaligned(as: UInt32.self), tail = from.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
        case 1..<4:
            target[0] = source[0]
            target[n / 2] = source[n / 2]
            target[n - 1] = source[n - 1]
        case 0:
            break
        default:
            target.update(from: source, count: n)
        }
    }

    /// `"name"`, for names that need no escaping.
    @inline(__always)
    private mutating func appendName(_ name: StaticString) {
        let start = reserve(name.utf8CodeUnitCount + 2)
        commit(JSONWriter.putName(name, at: start) - start)
    }

    @inline(__always)
    private static func putName(_ name: StaticString, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let n = name.utf8CodeUnitCount
        p.pointee = UInt8(ascii: "\"")
        copyShort(name.utf8Start, to: p + 1, count: n)
        p[n + 1] = UInt8(ascii: "\"")
        return p + n + 2
    }

    /// `v` in decimal, as `String(v)` writes it.
    @inline(__always)
    private mutating func appendInteger<I: BinaryInteger>(_ v: I) {
        let start = reserve(21)
        commit(JSONWriter.putInteger(v, at: start) - start)
    }

    /// Writes `v` in decimal (at most 21 bytes) at `p`; returns where it ends.
    @inline(__always)
    private static func putInteger<I: BinaryInteger>(_ v: I, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if I.isSigned {
            let s = Int64(v)
            if s < 0 {
                p.pointee = UInt8(ascii: "-")
                return putDecimal(s.magnitude, at: p + 1)
            }
            return putDecimal(UInt64(s), at: p)
        }
        return putDecimal(UInt64(v), at: p)
    }

    @inline(__always)
    private static func putDecimal(_ v: UInt64, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let width = digitCount(v)
        putDigits(v, width: width, at: p)
        return p + width
    }

    /// How many decimal digits `v` has (1 for 0).
    @inline(__always)
    private static func digitCount(_ v: UInt64) -> Int {
        if v < 10 { return 1 }
        if v < 100 { return 2 }
        if v < 1000 { return 3 }
        if v < 10000 { return 4 }
        if v < 100_000 { return 5 }
        if v < 1_000_000 { return 6 }
        var digits = 7
        var rest = v / 10_000_000
        while rest > 0 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    /// Writes `v` in exactly `width` digits, zero-padded on the left, two digits at a time.
    @inline(__always)
    private static func putDigits(_ v: UInt64, width: Int, at p: UnsafeMutablePointer<UInt8>) {
        let pairs: StaticString = """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """
        let table = pairs.utf8Start
        var n = v
        var i = width
        while i >= 2 {
            let pair = Int(n % 100) &* 2
            n /= 100
            i -= 2
            p[i] = table[pair]
            p[i + 1] = table[pair + 1]
        }
        if i == 1 { p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10) }
    }

    /// Writes `fixed(v, decimals:)` (at most 21 + 1 + `decimals` bytes) at `p` and returns where
    /// it ends; nil, having written nothing, for what `appendFixed` writes otherwise: `null`, or
    /// `String(v)` beyond what 64-bit integers hold exactly.
    @inline(__always)
    private static func putFixed(_ v: Double, decimals: Int, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>? {
        // The protocol's places, each with its scale a constant (no loop to make it, and the
        // divisions by it become multiplications).
        switch decimals {
        case 6: return putFixed(v, decimals: 6, scale: 1_000_000, at: p)
        case 2: return putFixed(v, decimals: 2, scale: 100, at: p)
        default:
            guard decimals <= 18 else { return nil }
            var scale: Int64 = 1
            for _ in 0..<decimals { scale &*= 10 }
            return putFixed(v, decimals: decimals, scale: scale, at: p)
        }
    }

    /// `putFixed` with `scale` = 10^`decimals`.
    @inline(__always)
    private static func putFixed(
        _ v: Double, decimals: Int, scale: Int64, at p: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8>? {
        guard v.isFinite else { return nil }
        // Double(scale) is exactly the product of `decimals` tens (exact in a Double up to 10^22).
        let scaled = (v * Double(scale)).rounded()
        guard abs(scaled) < 9e15 else { return nil }
        var p = p
        var n = Int64(scaled)
        if n < 0 {
            p.pointee = UInt8(ascii: "-")
            p += 1
            n = -n
        }
        p = putDecimal(UInt64(n / scale), at: p)
        var frac = n % scale
        guard frac != 0 else { return p }
        var digits = decimals
        while frac % 10 == 0 {
            frac /= 10
            digits -= 1
        }
        p.pointee = UInt8(ascii: ".")
        putDigits(UInt64(frac), width: digits, at: p + 1)
        return p + 1 + digits
    }

    /// `fixed(v, decimals:)`: `null` for a non-finite value, the shortest round-trip form
    /// (`String(v)`) beyond what 64-bit integers hold exactly.
    private mutating func appendFixed(_ v: Double, decimals: Int) {
        let start = reserve(decimals + 24)
        if let end = JSONWriter.putFixed(v, decimals: decimals, at: start) { return commit(end - start) }
        guard v.isFinite else { return append("null") }
        var s = String(v)
        s.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// `s` as a JSON string: `"`, `\` and control characters escaped, everything else as is.
    private mutating func appendQuoted(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            var p = reserve(utf8.count * 6 + 2)
            let start = p
            p.pointee = UInt8(ascii: "\"")
            p += 1
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    p[0] = UInt8(ascii: "\\")
                    p[1] = byte
                    p += 2
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                    p[0] = UInt8(ascii: "\\")
                    p[1] = byte == UInt8(ascii: "\n") ? UInt8(ascii: "n") : byte == UInt8(ascii: "\r") ? UInt8(ascii: "r") : UInt8(ascii: "t")
                    p += 2
                case 0..<0x20:
                    let hex: StaticString = "0123456789abcdef"
                    p[0] = UInt8(ascii: "\\")
                    p[1] = UInt8(ascii: "u")
                    p[2] = UInt8(ascii: "0")
                    p[3] = UInt8(ascii: "0")
                    p[4] = hex.utf8Start[Int(byte >> 4)]
                    p[5] = hex.utf8Start[Int(byte & 0xf)]
                    p += 6
                default:
                    p.pointee = byte
                    p += 1
                }
            }
            p.pointee = UInt8(ascii: "\"")
            commit(p + 1 - start)
        }
    }
}

/// A writer's bytes. Shared by copies of a writer until one of them writes where another's
/// bytes end (`length`, the end of the last write, tells); the writer then copies first, so
/// every copy keeps its bytes. Only writers touch it, and a writer is one thread's at a time.
final class JSONBytes: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var length = 0

    init(capacity: Int) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { base.deallocate() }
}
