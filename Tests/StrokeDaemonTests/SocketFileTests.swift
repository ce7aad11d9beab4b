import Foundation
import Testing

@testable import StrokeDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The files a daemon makes beside its socket, in a directory others may write (docs/security.md,
/// "What a client can and cannot do"): what is at the path is judged by what it is, never
/// through a link (adversaries' findings).
@Suite struct SocketFileTests {
    private static func directory() throws -> String {
        let directory = NSTemporaryDirectory() + "strokes-files-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The mode and group go to the socket file itself: a symbolic link swapped in at the path
    /// after the bind is refused, and its target keeps its mode.
    @Test func permissionsAreSetOnTheSocketNeverThroughALink() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = directory + "/s.sock"
        try makeStaleSocket(socketPath)
        try OwnedUnixSocket.setPermissions(path: socketPath, mode: 0o640, group: nil)
        var st = stat()
        #expect(lstat(socketPath, &st) == 0 && st.st_mode & 0o7777 == 0o640)

        let secret = directory + "/secret"
        try "root only".write(toFile: secret, atomically: true, encoding: .utf8)
        chmod(secret, 0o600)
        let link = directory + "/link.sock"
        #expect(symlink(secret, link) == 0)
        #expect {
            try OwnedUnixSocket.setPermissions(path: link, mode: 0o666, group: nil)
        } throws: { error in
            guard case SocketServerError.notASocket = error else { return false }
            return true
        }
        #expect(stat(secret, &st) == 0 && st.st_mode & 0o7777 == 0o600)
    }

    /// `PATH.lock` is trusted only as the daemon's own regular file: a FIFO there does not block
    /// the start, and another user's file (which that user could hold locked) is refused, naming
    /// what it is, not "in use".
    @Test func aLockFileThatIsNotTheDaemonsOwnIsRefused() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = directory + "/s.sock"
        #expect(mkfifo(socketPath + ".lock", 0o600) == 0)
        #expect {
            _ = try SocketLock.acquire(for: socketPath)
        } throws: { error in
            guard case SocketServerError.foreignLock(_, let what) = error else { return false }
            return what == "not a regular file"
        }
        unlink(socketPath + ".lock")
        let mine = try SocketLock.acquire(for: socketPath)
        mine.release()
        guard geteuid() == 0 else { return }  // giving a file away takes root
        #expect(chown(socketPath + ".lock", 65534, 65534) == 0)
        #expect {
            _ = try SocketLock.acquire(for: socketPath)
        } throws: { error in
            guard case SocketServerError.foreignLock(_, let what) = error else { return false }
            return what == "a file of uid 65534" && "\(error)".contains("not this user's lock file")
        }
    }
}
