import Foundation
import GestureActions
import StrokeProtocol
import Testing

@testable import strokes

/// The process side of `strokes gestures`: started without waiting, reaped, failures logged.
@Suite(.serialized, .timeLimit(.minutes(1))) struct CommandSpawnerTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    func command(_ action: GestureAction) -> PlannedCommand {
        let gesture = GestureMessage(
            gesture: 1, kind: .tap, phase: .end, device: 1, time: 0, fingers: 2, strokes: [1, 2], x: 0, y: 0, nx: 0, ny: 0,
            duration: 0)
        return PlannedCommand(rule: GestureRule(name: "r", match: GestureMatch(kind: .tap), action: action), gesture: gesture, deviceName: nil)
    }

    func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test func aSlowCommandDoesNotHoldUpTheCallerAndIsReaped() throws {
        let log = Log()
        let spawner = CommandSpawner(log: { log.append($0) })
        let started = Date()
        guard case .success = spawner.spawn(command(.run(["/bin/sleep", "0.5"]))) else {
            Issue.record("sleep did not start")
            return
        }
        #expect(Date().timeIntervalSince(started) < 0.4, "spawn waited for the command")
        #expect(spawner.running == 1)
        #expect(waitUntil { spawner.running == 0 })
        #expect(log.all.isEmpty, "\(log.all)")
    }

    /// A command gets standard input, output and error and no other descriptor of this process
    /// (NIO's epoll descriptors are not close-on-exec): it starts as from a shell.
    @Test func aCommandInheritsNoDescriptorPastStandardError() throws {
        let dir = NSTemporaryDirectory() + "strokes-fds-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A descriptor of this process that is not close-on-exec, as NIO's are not. At the number
        // open gives it: tests run in parallel in this process, and another's descriptor must not
        // be taken over (a `dup2` to a fixed number closed a socket of AbuseTests).
        let leaked = open("/dev/null", O_RDONLY)
        #expect(leaked > 2)
        defer { close(leaked) }
        let spawner = CommandSpawner(log: { _ in })
        let probe = "if [ -e /proc/$$/fd/\(leaked) ]; then echo inherited; else echo clean; fi > \(dir)/fds"
        guard case .success = spawner.spawn(command(.shell(probe))) else {
            Issue.record("sh did not start")
            return
        }
        #expect(waitUntil { spawner.running == 0 })
        #expect(try String(contentsOfFile: dir + "/fds", encoding: .utf8) == "clean\n")
    }

    @Test func failuresAreLoggedWithTheRule() throws {
        let log = Log()
        let spawner = CommandSpawner(log: { log.append($0) })
        guard case .failure(let errno) = spawner.spawn(command(.run(["strokes-no-such-program"]))) else {
            Issue.record("a missing program started")
            return
        }
        #expect(errno == .noSuchFileOrDirectory)
        _ = spawner.spawn(command(.shell("exit 3")))
        _ = spawner.spawn(command(.shell("kill -TERM $$")))
        #expect(waitUntil { log.all.count == 2 })
        #expect(log.all.contains { $0.hasPrefix("r: the command (pid ") && $0.hasSuffix(") exited with status 3") }, "\(log.all)")
        #expect(log.all.contains { $0.hasSuffix(") was killed by signal 15") }, "\(log.all)")
    }

    @Test func theChildGetsTheGestureEnvironmentAndNoStandardInput() throws {
        let file = NSTemporaryDirectory() + "strokes-spawn-\(UUID().uuidString.prefix(8))"
        defer { unlink(file) }
        let spawner = CommandSpawner(log: { _ in })
        _ = spawner.spawn(command(.shell("read line; echo \"$? $STROKES_GESTURE_FINGERS $STROKES_GESTURE_STROKES\" > \(file)")))
        #expect(waitUntil { spawner.running == 0 })
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "1 2 1 2\n", "read hit end of file at once: /dev/null")
    }

    /// The spawner waits for its own commands only: a child this process started otherwise keeps
    /// its exit status for whoever started it. (A reaper waiting for any child took the other
    /// tests' `strokes` processes here, whose status then read 0.)
    @Test func anotherChildOfTheProcessIsNotReaped() throws {
        let spawner = CommandSpawner(log: { _ in })
        guard case .success = spawner.spawn(command(.run(["/bin/sleep", "1"]))) else {
            Issue.record("sleep did not start")
            return
        }
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup("exit 7"), nil]
        defer { for p in argv { free(p) } }
        #expect(posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0)
        usleep(300_000)  // long since exited, while the spawner's command still runs
        var status: Int32 = 0
        let waited = waitpid(pid, &status, WNOHANG)
        #expect(waited == pid, "errno \(errno): the child was reaped by someone else")
        #expect((status >> 8) & 0xff == 7)
        #expect(waitUntil { spawner.running == 0 })
    }
}
