#if canImport(Glibc)
import Glibc
#endif

/// File names on Linux are bytes; Swift strings are Unicode. A name that is not UTF-8 (a Latin-1
/// name from an old archive, a Windows zip unpacked as is) is kept in a `String` with each byte
/// that is not part of valid UTF-8 as the private-use code point U+10FF00 + byte (U+10FF80 ...
/// U+10FFFF, as Python's `surrogateescape` keeps such bytes), so the file opens again:
/// `withCString` hands the system call the original bytes. The command line is decoded so
/// (`arguments`); Swift's own `CommandLine.arguments` replaces such bytes with U+FFFD, which names
/// another file.
///
/// A valid UTF-8 name that holds one of those code points itself has its four bytes escaped one
/// by one, so every byte string round-trips.
public enum FileName {
    /// The code points that stand for single bytes.
    public static let escapes: ClosedRange<UInt32> = 0x10FF80...0x10FFFF

    /// The process's arguments (`argv`), the program's name first, decoded as above.
    public static var arguments: [String] {
        (0..<Int(CommandLine.argc)).map { i in
            guard let arg = CommandLine.unsafeArgv[i] else { return "" }
            return decode(UnsafeBufferPointer(start: UnsafeRawPointer(arg).assumingMemoryBound(to: UInt8.self), count: strlen(arg)))
        }
    }

    /// `bytes` (a file name, no NUL) as a string: valid UTF-8 as it is, any other byte escaped.
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String where Bytes.Index == Int {
        var scalars = String.UnicodeScalarView()
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if let (scalar, length) = scalar(in: bytes, at: i), !escapes.contains(scalar.value) {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(0x10FF00 + UInt32(bytes[i]))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `name` stands for: `decode`'s inverse.
    public static func bytes(_ name: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        for u in name.unicodeScalars {
            if escapes.contains(u.value) {
                out.append(UInt8(truncatingIfNeeded: u.value))
            } else {
                out.append(contentsOf: UTF8.encode(u)!)
            }
        }
        return out
    }

    /// Calls `body` with `name`'s bytes as a C string, for a system call.
    public static func withCString<Result, Failure: Error>(
        _ name: String, _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard name.unicodeScalars.contains(where: { escapes.contains($0.value) }) else {
            return try withUnsafeCString(name, body)
        }
        var raw = bytes(name)
        raw.append(0)
        return try withUnsafeRaw(raw, body)
    }

    // `String.withCString` and `Array.withUnsafeBufferPointer` rethrow untyped: the typed error
    // goes through a `Result`.
    private static func withUnsafeCString<Result, Failure: Error>(
        _ s: String, _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try s.withCString { p in Swift.Result { () throws(Failure) in try body(p) } }.get()
    }

    private static func withUnsafeRaw<Result, Failure: Error>(
        _ raw: [UInt8], _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try raw.withUnsafeBufferPointer { buffer in
            Swift.Result { () throws(Failure) in
                try body(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self))
            }
        }.get()
    }

    /// The scalar whose UTF-8 encoding starts at `bytes[i]`, and its length; nil where the bytes
    /// there are not valid UTF-8 (overlong forms, surrogates and values past U+10FFFF included).
    private static func scalar<Bytes: Collection<UInt8>>(in bytes: Bytes, at i: Int) -> (Unicode.Scalar, Int)? where Bytes.Index == Int {
        let lead = bytes[i]
        let length: Int
        let minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7f: return (Unicode.Scalar(lead), 1)
        case 0xc2...0xdf: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1f))
        case 0xe0...0xef: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0f))
        case 0xf0...0xf4: (length, minimum, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard i + length <= bytes.endIndex else { return nil }
        for k in 1..<length {
            let b = bytes[i + k]
            guard b & 0xc0 == 0x80 else { return nil }
            value = value << 6 | UInt32(b & 0x3f)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
