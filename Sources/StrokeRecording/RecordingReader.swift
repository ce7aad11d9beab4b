import InputCore

#if canImport(Glibc)
import Glibc
#endif

/// Reads a recording in any supported format, detected from its content.
public enum RecordingReader {
    /// Detects the format of `bytes`: libinput-record YAML starts with a `version:` key (possibly
    /// after comments), evtest output with its `Input driver version` / `Input device ID` header,
    /// and everything else is taken as evemu, whose reader names the first line it cannot read.
    public static func detectFormat(_ bytes: [UInt8]) -> RecordingFormat {
        var scanner = LineReader(bytes: bytes, file: "")
        var inspected = 0
        // A line too long to read ends the look as the end of the input does.
        while let range = (try? scanner.nextLine()) ?? nil, inspected < 64 {
            let line = scanner.string(range).trimmingSpaces()
            if line.isEmpty { continue }
            inspected += 1
            if line.hasPrefix("# EVEMU") || line.hasPrefix("N:") || line.hasPrefix("E:") { return .evemu(major: 1, minor: 0) }
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("version:") || line.hasPrefix("ndevices:") || line.hasPrefix("---") { return .libinputRecord }
            if line.hasPrefix("Input driver version") || line.hasPrefix("Input device ID:")
                || line.hasPrefix("Input device name:") || line.hasPrefix("Available devices:")
                || line.hasPrefix("Event: time")
            {
                return .evtest
            }
            // Anything else may be what precedes a pasted evtest log (a shell prompt, a wrapper's
            // messages): keep looking. An evemu file names its first unreadable line when read.
        }
        return .evemu(major: 1, minor: 0)
    }

    /// Parses `bytes`, naming `file` in errors.
    public static func read(_ bytes: [UInt8], file: String) throws(RecordingError) -> Recording {
        var stream = try RecordingStream.read(bytes, file: file)
        return try stream.collect()
    }

    /// Reads and parses the file at `path` (`-` is standard input). For a recording too long to
    /// hold, `RecordingStream.open(path:)` reads it event by event.
    public static func read(path: String) throws(RecordingError) -> Recording {
        var stream = try RecordingStream.open(path: path)
        return try stream.collect()
    }

    /// The bytes of the file at `path` (`-` is standard input).
    public static func readFile(_ path: String) throws(RecordingError) -> [UInt8] {
        let file = try OpenFile(path: path)
        var out: [UInt8] = []
        while let chunk = try file.read(1 << 16) { out += chunk }
        return out
    }
}
