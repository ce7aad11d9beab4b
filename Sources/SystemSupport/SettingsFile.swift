import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A file of settings a program reads whole at start and on reload (the daemon's configuration,
/// `strokes gestures`' rules, the HTTP token): a regular file of at most `limit` bytes, or
/// `/dev/null` (empty).
///
/// Anything else is refused before a byte is read, since reading it can take the program with it:
/// a FIFO without a writer blocks (on the daemon's event loop, on reload: no client served, no
/// watchdog, no signal handled), `/dev/zero` never ends. Opened with `O_NONBLOCK`, so that even
/// opening a FIFO cannot block; the flag means nothing to a regular file's reads.
public enum SettingsFile {
    /// Why a settings file could not be read, as a message to follow its name.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case cannotOpen(Errno)
        case cannotRead(Errno)
        /// A directory, a FIFO, a device or a socket (what `kind` names).
        case notARegularFile(kind: String)
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .cannotOpen(let e): "cannot open: \(e)"
            case .cannotRead(let e): "cannot read: \(e)"
            case .notARegularFile(let kind): "not a regular file (\(kind))"
            case .tooLarge(let limit): "larger than \(SettingsFile.size(limit))"
            }
        }
    }

    /// The contents of the regular file at `path` (symbolic links followed), at most `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd: CInt
        do {
            fd = try Syscall.retrying { FileName.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) } }
        } catch {
            throw .cannotOpen(error)
        }
        defer { try? Syscall.closeDescriptor(fd) }  // read-only: a failed close loses nothing
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .cannotRead(Errno(rawValue: errno)) }
        let type = st.st_mode & S_IFMT
        // /dev/null, the usual way to say "no settings" (`--config /dev/null`), reads as empty.
        if type == S_IFCHR, isNullDevice(st) { return [] }
        guard type == S_IFREG else { throw .notARegularFile(kind: kind(type)) }
        guard st.st_size <= limit else { throw .tooLarge(limit: limit) }
        let bytes: [UInt8]?
        do {
            bytes = try Files.readAll(fd, limit: limit, expected: Int(st.st_size))
        } catch {
            throw .cannotRead(error)
        }
        // Checked again as it is read: the file may grow after `fstat`.
        guard let bytes else { throw .tooLarge(limit: limit) }
        return bytes
    }

    private static func isNullDevice(_ st: stat) -> Bool {
        var null = stat()
        return stat("/dev/null", &null) == 0 && null.st_mode & S_IFMT == S_IFCHR && null.st_rdev == st.st_rdev
    }

    private static func kind(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "mode \(String(type, radix: 8))"
        }
    }

    private static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : bytes % 1024 == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }
}
