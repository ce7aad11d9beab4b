import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A helper program run to completion (`posix_spawnp(3)`, then `waitpid(2)`): what `strokes
/// render` needs of Foundation's `Process`, without Foundation.
public enum ChildProcess {
    /// How the child ended.
    public enum Termination: Equatable, Sendable {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
    }

    /// Runs `program` (looked up in `PATH`, as a shell does) with `arguments`, standard input and
    /// output inherited, standard error captured; waits for it to end. Throws `ENOENT` (or
    /// `EACCES`) when there is no such program to run.
    ///
    /// Standard error is read until the child closes it before waiting, so a child that writes
    /// more than a pipe holds cannot block; it is kept whole (helpers write a few lines). `started`
    /// is told the child's process ID once it runs (`SignalCleanup.noteChild`).
    public static func run(
        _ program: String, arguments: [String], started: (pid_t) -> Void = { _ in }
    ) throws(Errno) -> (Termination, standardError: [UInt8]) {
        var ends: [CInt] = [-1, -1]
        _ = try Syscall.retrying { pipe(&ends) }  // pipe2 is not in Glibc's Swift overlay
        defer { for fd in ends where fd >= 0 { try? Syscall.closeDescriptor(fd) } }
        for fd in ends { _ = try Syscall.retrying { fcntl(fd, F_SETFD, FD_CLOEXEC) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the child's descriptor 2 only.
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { FileName.withCString($0) { strdup($0) } } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Errno(rawValue: spawned) }
        started(pid)
        try Syscall.closeDescriptor(ends[1])
        ends[1] = -1

        var errors: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n: Int
            do {
                n = try Syscall.retrying { chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) } }
            } catch {
                break  // the child's diagnostics are lost, not its exit status: still waited for below
            }
            if n == 0 { break }
            errors += chunk[0..<n]
        }
        var status: CInt = 0
        _ = try Syscall.retrying { waitpid(pid, &status, 0) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let termination: Termination =
            status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        return (termination, errors)
    }
}
