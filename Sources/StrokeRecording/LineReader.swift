import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Lines of a file read in chunks, or of bytes already in memory, without copying them: memory is
/// one chunk plus the longest line, whatever the file's length. Lines end at `\n`; a trailing `\r`
/// is dropped. A line longer than `RecordingLimits.maxLineBytes` is refused.
struct LineReader {
    /// The bytes the ranges `nextLine()` returns index into; valid until the next call.
    private(set) var buffer: [UInt8]
    private var start = 0
    private var scanned = 0
    private let fd: Int32?
    private var atEOF: Bool
    private var repeatLast: Range<Int>?
    let file: String
    /// 1-based number of the line last returned by `nextLine()`.
    private(set) var lineNumber = 0
    /// Bytes consumed so far (the lines returned and their newlines).
    private(set) var consumed = 0

    static let chunkSize = 1 << 16

    /// Lines of `bytes`.
    init(bytes: [UInt8], file: String) {
        buffer = bytes
        fd = nil
        atEOF = true
        self.file = file
        skipByteOrderMark()
    }

    /// Lines read from `fd` (not closed here), after `prefix`, bytes already read from it.
    init(fd: Int32, prefix: [UInt8], file: String) {
        buffer = prefix
        buffer.reserveCapacity(Self.chunkSize * 2)
        self.fd = fd
        atEOF = false
        self.file = file
        skipByteOrderMark()
    }

    /// A UTF-8 byte order mark at the start (an editor's, on a dump as people paste it) is not
    /// part of the first line.
    private mutating func skipByteOrderMark() {
        guard buffer.starts(with: [0xEF, 0xBB, 0xBF]) else { return }
        start = 3
        scanned = 3
        consumed = 3
    }

    /// The next line as a range into `buffer`, or nil at the end.
    mutating func nextLine() throws(RecordingError) -> Range<Int>? {
        if let line = repeatLast {
            repeatLast = nil
            lineNumber += 1
            return line
        }
        while true {
            if let newline = findNewline() {
                if newline - start > RecordingLimits.maxLineBytes { throw tooLong() }
                let line = start..<newline
                consumed += newline + 1 - start
                start = newline + 1
                scanned = start
                lineNumber += 1
                return trimmingCR(line)
            }
            if buffer.count - start > RecordingLimits.maxLineBytes { throw tooLong() }
            if atEOF {
                guard start < buffer.count else { return nil }
                let line = start..<buffer.count
                consumed += buffer.count - start
                start = buffer.count
                scanned = start
                lineNumber += 1
                return trimmingCR(line)
            }
            try fill()
        }
    }

    private func tooLong() -> RecordingError {
        RecordingError(
            file: file, line: lineNumber + 1,
            message: "line longer than \(RecordingLimits.maxLineBytes) bytes: "
                + RecordingError.excerpt(
                    String(decoding: buffer[start..<(start + 256)], as: UTF8.self),
                    length: "more than \(RecordingLimits.maxLineBytes) bytes")
        )
    }

    /// Returns the line last returned once more from the next `nextLine()` (one level only).
    mutating func pushBack(_ line: Range<Int>) {
        repeatLast = line
        lineNumber -= 1
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: buffer[range], as: UTF8.self)
    }

    private mutating func findNewline() -> Int? {
        let found: Int? = buffer.withUnsafeBufferPointer { buf in
            var i = scanned
            while i < buf.count {
                if buf[i] == UInt8(ascii: "\n") { return i }
                i += 1
            }
            return nil
        }
        if found == nil { scanned = buffer.count }
        return found
    }

    private func trimmingCR(_ line: Range<Int>) -> Range<Int> {
        if line.upperBound > line.lowerBound && buffer[line.upperBound - 1] == UInt8(ascii: "\r") {
            return line.lowerBound..<(line.upperBound - 1)
        }
        return line
    }

    /// Drops the lines already returned and appends the next chunk of the file.
    private mutating func fill() throws(RecordingError) {
        guard let fd else {
            atEOF = true
            return
        }
        if start > 0 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        let n: Int
        do {
            n = try Syscall.retrying { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + old, Self.chunkSize) } }
        } catch {
            buffer.removeSubrange(old...)
            throw RecordingError(file: file, line: nil, message: "cannot read: \(error)")
        }
        buffer.removeSubrange((old + n)...)
        if n == 0 { atEOF = true }
    }
}
