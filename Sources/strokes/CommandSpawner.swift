import GestureActions
import StrokeClient
import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Starts the commands `strokes gestures` runs and reaps them, never waiting for one in line:
/// `spawn` returns once the program is executing (or failed to), and a thread per command blocks
/// in `waitpid` for that command alone, logging it if it fails. Waiting by pid, not for any
/// child (`waitpid(-1)`), leaves the other children of the process to whoever started them (a
/// test process's, which the reaper took, and whose exit statuses were then lost); a thread per
/// child rather than a SIGCHLD handler needs no signal disposition of the process changed and no
/// polling (commands are few: `GestureRateLimit`).
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
        let status = posix_spawnp(&pid, argv[0]!, &actions, &attributes, argv, envp)
        guard status == 0 else { return .failure(Errno(rawValue: status)) }
        condition.lock()
        children[pid] = command.rule
        condition.unlock()
        let child = pid
        do {
            try startThread { [self] in reap(child) }
        } catch {
            // Not waited for: a zombie until this process ends, and `waitForAll` does not count it.
            log("\(command.rule): cannot start a thread to wait for the command (pid \(child)): \(error)")
            forget(child)
        }
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

    /// Waits for the child `pid` (on its own thread), logs how it failed if it did.
    private func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                log("the command (pid \(pid)) could not be waited for: \(Errno(rawValue: errno))")
                forget(pid)
                return
            }
        }
        guard let rule = forget(pid) else { return }
        let signal = status & 0x7f
        let code = (status >> 8) & 0xff
        if signal != 0 {
            log("\(rule): the command (pid \(pid)) was killed by signal \(signal)")
        } else if code != 0 {
            log("\(rule): the command (pid \(pid)) exited with status \(code)")
        }
    }

    /// Takes `pid` off the running children (waking `waitForAll` when none is left); its rule.
    @discardableResult
    private func forget(_ pid: pid_t) -> String? {
        condition.lock()
        defer { condition.unlock() }
        let rule = children.removeValue(forKey: pid)
        if children.isEmpty { condition.broadcast() }
        return rule
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), looked up once: Swift's Glibc
    /// module does not import it.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

}
