import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Directories and whole files through the syscall funnel, for the modules that would otherwise
/// import Foundation for `FileManager`, `Data(contentsOf:)` or `Data.write(to:options:)` (and
/// with it ICU, some 6.6 MB of the daemon's memory: docs/performance.md, "Memory").
public enum Files {
    /// The names in `directory` (`readdir(3)`), without `.` and `..`, in the order the directory
    /// gives them.
    public static func names(in directory: String) throws(Errno) -> [String] {
        guard let dir = FileName.withCString(directory, { opendir($0) }) else { throw Errno(rawValue: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { throw Errno(rawValue: errno) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FileName.decode(Array(raw.prefix { $0 != 0 }))
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// The whole content of the file at `path`; at most `limit` bytes (`nil` when the file is
    /// larger, so that a file that keeps growing cannot exhaust memory).
    public static func contents(of path: String, limit: Int = .max) throws(Errno) -> [UInt8]? {
        let fd = try Syscall.retrying { FileName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) } }
        defer { try? Syscall.closeDescriptor(fd) }  // read-only: a failed close loses nothing
        return try readAll(fd, limit: limit)
    }

    /// Everything `fd` reads until its end; `nil` as soon as that is more than `limit` bytes.
    /// `expected` reserves room for a size known beforehand (a regular file's `st_size`).
    public static func readAll(_ fd: CInt, limit: Int, expected: Int = 0) throws(Errno) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(expected, limit))
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let n = try Syscall.retrying { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else { return nil }
            bytes += chunk[0..<n]
        }
    }

    /// Writes `bytes` to `path` so that a reader sees the old content or the new, never part of
    /// it: into a new file beside it (created with mode 0666 less the umask, as `open(2)` does;
    /// replacing a file, with that file's mode and group, as `>` keeps them: a private 0600
    /// picture stayed private, an adversary's finding), flushed, then renamed over `path`. The
    /// new file is removed when anything fails.
    ///
    /// Only a regular file (or none) is replaced so: a symbolic link, a FIFO or a device at `path`
    /// (`/dev/stdout`, `/dev/null`, a pipe a viewer reads) is written through, as `>` in a shell
    /// writes it; renaming over it would put a regular file in its place.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Errno) {
        if !isRegularOrAbsent(path) {
            let fd = try Syscall.retrying { FileName.withCString(path) { open($0, O_WRONLY | O_TRUNC | O_CLOEXEC) } }
            do throws(Errno) {
                try writeAll(fd, bytes)
            } catch {
                try? Syscall.closeDescriptor(fd)
                throw error
            }
            return try Syscall.closeDescriptor(fd)
        }
        var attempt = 0
        var temporary: String
        var fd: CInt
        while true {
            temporary = "\(path).\(getpid())-\(attempt).tmp"
            do {
                fd = try Syscall.retrying { FileName.withCString(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) } }
                break
            } catch .fileExists where attempt < 100 {
                attempt += 1
            }
        }
        do throws(Errno) {
            try keepMode(of: path, on: fd)
            try writeAll(fd, bytes)
            _ = try Syscall.retrying { fsync(fd) }
            try Syscall.closeDescriptor(fd)
            fd = -1
            _ = try Syscall.retrying { FileName.withCString(temporary) { t in FileName.withCString(path) { rename(t, $0) } } }
        } catch {
            if fd >= 0 { try? Syscall.closeDescriptor(fd) }
            FileName.withCString(temporary) { _ = unlink($0) }
            throw error
        }
    }

    /// Gives the descriptor `fd` the mode (and, where allowed, the group) of the regular file at
    /// `path`, if there is one: what replaces a file keeps its permissions.
    public static func keepMode(of path: String, on fd: CInt) throws(Errno) {
        var st = stat()
        guard FileName.withCString(path, { lstat($0, &st) }) == 0, st.st_mode & S_IFMT == S_IFREG else { return }
        _ = fchown(fd, uid_t.max, st.st_gid)  // only a member of the group may; else the new file's
        _ = try Syscall.retrying { fchmod(fd, st.st_mode & 0o7777) }
    }

    /// Whether `path` names a regular file, or nothing: what may be replaced by renaming a new file
    /// over it. A symbolic link, a FIFO, a device or a directory is not.
    public static func isRegularOrAbsent(_ path: String) -> Bool {
        var st = stat()
        guard FileName.withCString(path, { lstat($0, &st) }) == 0 else { return true }
        return st.st_mode & S_IFMT == S_IFREG
    }

    /// Writes all of `bytes` to `fd`, retrying short writes.
    public static func writeAll(_ fd: CInt, _ bytes: [UInt8]) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try Syscall.retrying { bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) } }
        }
    }
}
