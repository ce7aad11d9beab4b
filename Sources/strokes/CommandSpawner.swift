import GestureActions
import StrokeClient
import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Starts the commands `strokes gestures` runs and reaps them, never waiting for one in line:
/// `spawn` returns once the program is executing (or failed to), and a thread of its own blocks
/// in `waitpid` while any child is running, logging the ones that fail. A blocking `waitpid` on
/// one thread, rather than a SIGCHLD handler, needs no signal disposition of the process changed
/// and no polling.
final class CommandSpawner: @unchecked Sendable {
    // @unchecked: `children` is read and written only with `condition` locked.
    private let condition = ConditionLock()
    /// Running children: pid → the rule that started it.
    private var children: [pid_t: String] = [:]
    private let inherited: [String]
    private let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
        inherited = Environment.variables.map { "\($0.key)=\($0.value)" }.sorted()
        do {
            try startThread { [self] in reap() }
        } catch {
            preconditionFailure("cannot start the thread that reaps gesture commands: \(error)")
        }
    }

    /// Commands started and not yet reaped.
    var running: Int {
        condition.lock()
        defer { condition.unlock() }
        return children.count
    }

    /// Starts `command` (its program looked up in `PATH`; standard input `/dev/null`, output and
    /// errors inherited, no other descriptor; signal mask and every disposition reset: a command
    /// starts as from a shell, not with this process's event-loop descriptors or ignored signals).
    /// The pid, or why it could not start (`ENOENT` for a program not found, …).
    func spawn(_ command: PlannedCommand) -> Result<pid_t, Errno> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // Every descriptor past standard error closed in the child: NIO's epoll descriptors are
        // not close-on-exec (glibc 2.34's `closefrom` action; without it, left as they are).
        _ = CommandSpawner.addCloseFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = command.argv.map { FileName.withCString($0) { strdup($0) } } + [nil]
        let envp = command.environment(inheriting: inherited).map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        condition.lock()
        defer { condition.unlock() }
        // Locked across the spawn: the reaper cannot reap this child before it is in `children`.
        let status = posix_spawnp(&pid, argv[0]!, &actions, &attributes, argv, envp)
        guard status == 0 else { return .failure(Errno(rawValue: status)) }
        children[pid] = command.rule
        condition.broadcast()  // the reaper, and not only a `waitForAll` waiting too
        return .success(pid)
    }

    /// Returns once every command started has ended (and been reaped): `--once` waits for what
    /// it started before it exits. Waits on a thread of its own, not on the caller's.
    func waitForAll() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            do {
                try startThread { [self] in
                    condition.lock()
                    while !children.isEmpty { condition.wait() }
                    condition.unlock()
                    done.resume()
                }
            } catch {
                log("cannot wait for the commands still running: \(error)")
                done.resume()
            }
        }
    }

    private func reap() {
        while true {
            condition.lock()
            while children.isEmpty { condition.wait() }
            condition.unlock()
            var status: Int32 = 0
            let pid = waitpid(-1, &status, 0)
            if pid < 0 {
                if errno == EINTR { continue }
                // ECHILD with children listed: nothing left to wait for; forget them.
                condition.lock()
                children.removeAll()
                condition.broadcast()
                condition.unlock()
                continue
            }
            condition.lock()
            let rule = children.removeValue(forKey: pid)
            if children.isEmpty { condition.broadcast() }
            condition.unlock()
            guard let rule else { continue }
            let signal = status & 0x7f
            let code = (status >> 8) & 0xff
            if signal != 0 {
                log("\(rule): the command (pid \(pid)) was killed by signal \(signal)")
            } else if code != 0 {
                log("\(rule): the command (pid \(pid)) exited with status \(code)")
            }
        }
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), looked up once: Swift's Glibc
    /// module does not import it.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

}
