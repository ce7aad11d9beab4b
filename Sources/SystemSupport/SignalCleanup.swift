#if canImport(Glibc)
import Glibc
#endif

/// What a command leaves behind when a signal ends it half-way: the files it is making and the
/// helper it runs. While `during` runs, SIGINT, SIGTERM and SIGHUP remove the files named, send
/// the same signal to the child noted with `noteChild`, and end the process as the signal's
/// default action would (so the parent sees the signal, not an exit status).
///
/// For one-shot commands (`strokes render` and its `rsvg-convert`), one `during` at a time. The
/// handler does only what is async-signal-safe: `unlink`, `kill`, `sigaction`, `raise`, reading
/// C strings made before it was installed.
public enum SignalCleanup {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    static let capacity = 4
    /// The files' names as C strings (never freed: a handler on another thread may be reading
    /// them as `during` ends), how many are in use, and the child (0: none).
    nonisolated(unsafe) static let paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    nonisolated(unsafe) static var count = 0
    nonisolated(unsafe) static var child: pid_t = 0

    /// Runs `body` with the cleanup in force for `files` (at most four; names as `FileName`
    /// makes them), then puts the signals' former handlers back.
    public static func during<Result, Failure: Error>(
        removing files: [String], _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        precondition(files.count <= capacity && count == 0, "SignalCleanup: one `during` at a time, four files")
        for (i, file) in files.enumerated() { paths[i] = FileName.withCString(file) { strdup($0) } }
        count = files.count
        var action = sigaction()
        action.__sigaction_handler.sa_handler = cleanUpAndDie
        sigfillset(&action.sa_mask)
        var former = Array(repeating: sigaction(), count: signals.count)
        for (i, s) in signals.enumerated() {
            sigaction(s, nil, &former[i])
            // Left ignored where it was (`nohup`, a shell's background job): then it ends nothing.
            guard !isIgnored(former[i]) else { continue }
            sigaction(s, &action, nil)
        }
        defer {
            for (i, s) in signals.enumerated() { sigaction(s, &former[i], nil) }
            count = 0
            child = 0
        }
        return try body()
    }

    /// Makes a file within `during` whose name is known only once it exists (`mkstemp(3)`) and
    /// adds it to those removed: the signals are blocked from before it is made until it is
    /// listed, so one that comes meanwhile is handled, and removes it, once it is listed.
    public static func creating<Failure: Error>(_ make: () throws(Failure) -> String) throws(Failure) -> String {
        precondition(count < capacity, "SignalCleanup: four files")
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for s in signals { sigaddset(&blocked, s) }
        var former = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &former)
        defer { pthread_sigmask(SIG_SETMASK, &former, nil) }
        let path = try make()
        paths[count] = FileName.withCString(path) { strdup($0) }
        count += 1
        return path
    }

    /// The child started within `during`, ended with the same signal if one ends this process.
    public static func noteChild(_ pid: pid_t) { child = pid }

    private static func isIgnored(_ action: sigaction) -> Bool {
        guard let handler = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

/// The handler: a C function, so it captures nothing.
private func cleanUpAndDie(_ signal: Int32) {
    for i in 0..<SignalCleanup.count { if let p = SignalCleanup.paths[i] { unlink(p) } }
    if SignalCleanup.child > 0 { kill(SignalCleanup.child, signal) }
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigaction(signal, &action, nil)
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, signal)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    raise(signal)
}
