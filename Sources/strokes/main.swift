import Dispatch
import Glibc
import NIOCore
import NIOPosix
import SystemSupport

// Before anything opens a descriptor: closed standard descriptors get /dev/null, so that an
// epoll or a socket never takes their numbers (and its commands' output, or its own messages).
StandardDescriptors.ensureOpen()

// NIO's event loops trap (SIGILL, a backtrace) when they cannot open their epoll, eventfd and
// timerfd descriptors; the daemon needs about 20 before its first client. Refused here with a
// message instead, after raising the soft limit as far as the hard one allows.
if let files = DescriptorLimit.raiseSoft(to: 64), files < 24 {
    let message = "strokes: needs at least 24 file descriptors; the limit is \(files) (ulimit -n)\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(71)  // EX_OSERR
}

// A function, not a closure: a closure here would be the main actor's, and exit runs on any thread.
atexit(checkStandardOutputAtExit)

// Swift concurrency's default global executor on Linux is libdispatch's thread pool, and once it
// has run a task, libdispatch's pool monitor (src/event/workqueue.c, Linux only) wakes the process
// once a second for as long as it lives. The daemon must not wake while nothing touches (issue 14,
// "Idle"), so every task runs on NIO's singleton event loops instead; installed here, before the
// first task, as the hook requires (`ConcurrencyExecutor`: NIO's installation, or the same by hand
// where the Swift runtime is linked statically and NIO cannot find the hook).
if !ConcurrencyExecutor.install() {
    let warning = "strokes: warning: tasks run on libdispatch, which wakes the process once a second\n"
    _ = warning.withCString { write(2, $0, strlen($0)) }
}
Task {
    // Arguments that are not UTF-8 (file names) kept byte for byte: `FileName`.
    await Strokes.main(Array(FileName.arguments.dropFirst()))
    exit(0)
}
// The command's `main()` runs on the main actor: the main thread drains the main queue.
dispatchMain()
